/**
 * OAuth clients, as an administrator configures them on the platform: name, grant type,
 * authentication method, scopes, permissions (a scope never adds one) and redirect URIs. The
 * client ID is issued at creation and the secret is shown once; regenerating the secret makes the
 * old one fail at once. A public client (authentication method `none`, such as the platform's own
 * CLI with the device grant) has no secret at all. Records are replaced, never mutated, so a
 * reset restores them cheaply.
 */
import * as z from 'zod'
import { documentAs } from '../../kernel/docs.js'
import { ConflictError, NotFoundError } from '../../kernel/errors.js'
import { fixtureSection, type FixtureSection } from '../../kernel/fixtures.js'
import { KeyedStore } from '../../kernel/keyed-store.js'
import { parseBody } from '../../kernel/validation.js'
import { permissionSchema } from '../permissions.js'
import { SCOPE_NAMES, type ScopeName, scopeSchema } from './scopes.js'
import { once } from '../../kernel/once.js'

export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'device_code'] as const
export type ClientGrantType = (typeof GRANT_TYPES)[number]
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const
export type AuthMethod = (typeof AUTH_METHODS)[number]

/** The `grant_type` of the device grant at the token endpoint (RFC 8628 section 3.4). */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/** The platform's labels (`Client Credentials`, `Client secret basic`) are accepted as well as the RFC names, in any case. */
const GRANT_LABELS = {
  'Client Credentials': 'client_credentials',
  'Authorization Code': 'authorization_code',
  'Device Code': 'device_code',
  [DEVICE_CODE_GRANT]: 'device_code',
} as const satisfies Record<string, ClientGrantType>
const METHOD_LABELS = {
  'Client secret basic': 'client_secret_basic',
  'Client secret post': 'client_secret_post',
  public: 'none',
} as const satisfies Record<string, AuthMethod>

/**
 * The schemas of OAuth clients (fixtures, inputs, stored records, the control plane's view), made
 * on the first call: the default fixtures come validated from the build, and a client is looked
 * up, never parsed, on a token request.
 */
export const clientSchemas: () => ClientSchemas = once(makeSchemas)
type ClientSchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  /** An enum that also takes the platform's labels; typed for callers as the names and the labels as the platform writes them. */
  const normalized = <T extends readonly [string, ...string[]], L extends string>(values: T, labels: Readonly<Record<L, T[number]>>): z.ZodType<T[number], T[number] | L> => {
    const byLowerCase = new Map(Object.entries<string>(labels).map(([label, value]) => [label.toLowerCase(), value]))
    const schema = z.preprocess((v) => (typeof v === 'string' ? (byLowerCase.get(v.trim().toLowerCase()) ?? v) : v), z.enum(values))
    // zod cannot describe the preprocessing in JSON Schema: show the names and labels callers may send, and the names they get.
    documentAs(schema, {
      input: { type: 'string', enum: [...values, ...Object.keys(labels)], description: "The name, or the platform's label (in any case)." },
      output: { type: 'string', enum: [...values] },
    })
    return schema as unknown as z.ZodType<T[number], T[number] | L>
  }

  /** For callers a scope is one of the platform's names (completion, and a typo is a type error); it is kept as a string. */
  const Scope = scopeSchema()
  const Permission = permissionSchema()
  const ScopeInput = Scope as unknown as z.ZodType<string, ScopeName>

  const RedirectUri = z.string().refine(
    (value) => {
      try {
        const url = new URL(value)
        return url.hash === '' && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol)
      } catch {
        return false
      }
    },
    { message: 'must be an absolute URI without a fragment, e.g. http://127.0.0.1/callback' },
  )

  /** The fields every client shape shares (the same schemas in each, so JSON Schema shows them once). */
  const clientFields = {
    name: z.string().min(1),
    grantType: normalized(GRANT_TYPES, GRANT_LABELS),
    authMethod: normalized(AUTH_METHODS, METHOD_LABELS),
    scopes: z.array(Scope).default([...SCOPE_NAMES]),
    permissions: z.array(Permission).default([]),
    redirectUris: z.array(RedirectUri).default([]),
    /** `page` always asks the user on a consent page; `auto` follows the run's consent setting. */
    consent: z.enum(['auto', 'page']).default('auto'),
    /** `required`: an authorization request without a PKCE code_challenge is refused. */
    pkce: z.enum(['optional', 'required']).default('optional'),
  }

  /** A confidential client has a secret; a public one (`none`) has none. */
  const secretFitsMethod = (client: { authMethod: AuthMethod; clientSecret?: string | undefined }, ctx: z.RefinementCtx): void => {
    if (client.authMethod === 'none' && client.clientSecret !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'a public client (authMethod "none") has no secret' })
    }
    if (client.authMethod !== 'none' && client.clientSecret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: `a ${client.authMethod} client needs a secret` })
    }
  }

  const OAuthClient = z
    .strictObject({
      clientId: z.string().min(1),
      /** Absent for a public client. */
      clientSecret: z.string().min(1).optional(),
      ...clientFields,
    })
    .superRefine(secretFitsMethod)


  const CreateClientBody = z.strictObject({ ...clientFields, scopes: z.array(ScopeInput).default([...SCOPE_NAMES]), clientId: z.string().min(1).optional() })

  /** A client as the control plane shows it (for its documentation): everything but the secret. */
  const ClientInfoSchema = z.object({ clientId: z.string(), ...clientFields })

  return { OAuthClient, CreateClientBody, ClientInfoSchema }
}

export type OAuthClient = z.infer<ClientSchemas['OAuthClient']>
/** An OAuth client as `emu.oauth.clients.create()` and `POST /__svc-mock/oauth-clients` take it. */
export type OAuthClientInput = z.input<ClientSchemas['CreateClientBody']>
/** An OAuth client as the `oauthClients` fixture section takes it. */
export type OAuthClientFixture = Omit<z.input<ClientSchemas['OAuthClient']>, 'scopes'> & { scopes?: ScopeName[] }

export const oauthClientsSection: FixtureSection<OAuthClient> = fixtureSection('oauthClients', () => clientSchemas().OAuthClient, (c) => c.clientId)

/** A client as the control plane shows it: everything but the secret. */
export type ClientInfo = Omit<OAuthClient, 'clientSecret'>

export function describeClient(client: OAuthClient): ClientInfo {
  const { clientSecret: _secret, ...info } = client
  return info
}

export class ClientRegistry {
  readonly clients = new KeyedStore(() => clientSchemas().OAuthClient, (c) => c.clientId)

  get(clientId: string): OAuthClient | undefined {
    return this.clients.get(clientId)
  }

  all(): OAuthClient[] {
    return this.clients.all()
  }

  create(input: OAuthClientInput, ids: { uuid: () => string; secret: () => string }): OAuthClient {
    const { clientId, ...fields } = parseBody(clientSchemas().CreateClientBody, input, 'OAuth client')
    const id = clientId ?? ids.uuid()
    if (this.clients.has(id)) throw new ConflictError(`An OAuth client with the id ${id} exists already.`, 'clientId')
    return this.clients.put({ clientId: id, ...(fields.authMethod === 'none' ? {} : { clientSecret: ids.secret() }), ...fields })
  }

  /** Issues a new secret; the old one stops working at once. A public client has none to regenerate. */
  regenerateSecret(clientId: string, secret: string): OAuthClient {
    const client = this.require(clientId)
    if (client.authMethod === 'none') throw new ConflictError(`Client ${clientId} is a public client (authMethod "none"): it has no secret to regenerate.`, 'clientId')
    return this.clients.put({ ...client, clientSecret: secret })
  }

  delete(clientId: string): boolean {
    return this.clients.delete(clientId)
  }

  require(clientId: string): OAuthClient {
    const client = this.get(clientId)
    if (!client) throw new NotFoundError(`No OAuth client ${clientId}.`, 'clientId')
    return client
  }
}
