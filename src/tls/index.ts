/**
 * svc-mock's TLS: the local certificate authority kept once per user, the server certificates it
 * signs, a user's own certificate checked, and the trust bundle for clients that read one file.
 * Everything here loads only when HTTPS or the CA is asked for.
 */
export { CA_CERT_FILE, CA_DIR_VARIABLE, caFolder } from './ca-folder.js'
export { CA_BUNDLE_FILE, SYSTEM_BUNDLES, TRUST_VARIABLES, type TrustBundle, writeTrustBundle } from './bundle.js'
export { type FoundCa, type LocalCa, LocalCaError, existingLocalCa, localCa } from './local-ca.js'
export { LOCAL_NAMES_TEXT, isLocalName, unvouchableName } from './local-names.js'
export { type ServerTls, type TlsCertificate, serverNames, serverTls } from './server-tls.js'
