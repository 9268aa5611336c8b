/**
 * The standalone server's flags: where it listens (`--port`, `--host`, `--public-url`), HTTPS
 * (`--https`, or a certificate of your own with `--tls-cert FILE --tls-key FILE`, read here; the
 * pair is checked where it is served), the saved state written when it stops (`--export-on-exit`)
 * and the teams' (`--teams`, `--max-teams`, declared by src/teams/). Kept apart from server.ts so
 * the command reads them without loading the server.
 */
import type { Flag } from '../kernel/flags.js'
import { fileText, numberText } from '../kernel/flags.js'
import { TEAMS_FLAGS } from '../teams/index.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './constants.js'
import type { ServerOptions } from './server.js'

export const SERVER_FLAGS: readonly Flag<ServerOptions>[] = [
  { name: 'port', env: 'SVC_MOCK_PORT', option: 'port', placeholder: 'N', example: '4010', help: 'port to listen on, 0 for any free one', default: `${DEFAULT_PORT} (exec: 0)`, parse: numberText },
  { name: 'host', env: 'SVC_MOCK_HOST', option: 'host', placeholder: 'ADDR', example: '127.0.0.1', help: 'address to bind', default: DEFAULT_HOST },
  { name: 'public-url', env: 'SVC_MOCK_PUBLIC_URL', option: 'publicUrl', placeholder: 'URL', example: 'https://svc-mock.test:8443', help: 'address clients use, if not http://host:port' },
  {
    name: 'https',
    env: 'SVC_MOCK_HTTPS',
    option: 'https',
    kind: 'switch',
    help:
      "serve HTTPS, with a certificate signed by svc-mock's local CA\n(made once per user; svc-mock ca prints its path)\n" +
      'The CA vouches for localhost, *.localhost, *.test, *.internal, 127.0.0.0/8\nand ::1 only: for another --public-url host, use --tls-cert/--tls-key',
  },
  { name: 'tls-cert', env: 'SVC_MOCK_TLS_CERT', option: 'https.cert', placeholder: 'FILE', example: 'cert.pem', echo: true, help: 'serve HTTPS with your own certificate (PEM)', parse: fileText },
  { name: 'tls-key', env: 'SVC_MOCK_TLS_KEY', option: 'https.key', placeholder: 'FILE', example: 'key.pem', echo: true, help: 'its private key (PEM, unencrypted)', parse: fileText },
  {
    name: 'export-on-exit',
    env: 'SVC_MOCK_EXPORT_ON_EXIT',
    option: 'exportOnExit',
    placeholder: 'FILE',
    example: 'state.json',
    help: 'write a saved state to FILE when the server stops (SIGINT, SIGTERM, the end of\nexec), atomically; --import FILE starts from it (docs/state.md)',
  },
  ...TEAMS_FLAGS,
]
