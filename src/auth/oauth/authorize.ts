/**
 * The authorize step (`GET /oauth2/authorize`, and `POST` from the consent page's form). It checks
 * the client and the redirect URI before anything else and shows an error page if either fails;
 * later problems redirect with `error` and `state`. By default the `login_hint` user (default
 * `alice`) consents at once and the answer is a 302 to the redirect URI with `code` and `state`.
 * With the consent page on (client or run option) the user decides with Allow or Deny, unless
 * they already consented to these scopes; the `consent-denied` setting answers as a Deny.
 */
import type { RequestContext } from '../../kernel/route.js'
import { empty, type Reply } from '../../kernel/reply.js'
import { DEFAULT_LOGIN } from '../constants.js'
import type { Directory, User } from '../directory.js'
import { authSettings } from '../settings.js'
import type { ClientRegistry, OAuthClient } from './clients.js'
import type { CodeStore } from './single-use-store.js'
import type { ConsentStore } from './consents.js'
import { AuthorizePageError, AuthorizeRedirectError, type AuthorizeErrorCode } from './wire.js'
import { consentPage } from './pages.js'
import { matchRedirectUri, redirectTo } from './redirect-uris.js'
import { grantScopes, parseScopeParam } from './scopes.js'

const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/

export interface AuthorizeDeps {
  readonly clients: ClientRegistry
  readonly directory: Directory
  readonly consents: ConsentStore
  readonly codes: CodeStore
  readonly authOrigin: string
  readonly newCode: () => string
  readonly newId: () => string
}

type Params = ReadonlyMap<string, string>

/** The parameters posted back by the consent page, besides the decision. */
const FORWARDED = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'login_hint'] as const

export async function authorize(ctx: RequestContext, params: Params, deps: AuthorizeDeps, decision?: string): Promise<Reply> {
  const client = findClient(params, deps.clients)
  ctx.identity = `OAuth client ${client.clientId}`
  const match = matchRedirectUri(client.redirectUris, params.get('redirect_uri'))
  if ('problem' in match) throw new AuthorizePageError('Invalid redirect URI', match.problem)
  const state = params.get('state')
  const fail = (error: AuthorizeErrorCode, description: string): AuthorizeRedirectError => new AuthorizeRedirectError(error, description, match.uri, state)

  const responseType = params.get('response_type')
  if (responseType === undefined) throw fail('invalid_request', 'The parameter "response_type" is missing: send response_type=code.')
  if (responseType !== 'code') throw fail('unsupported_response_type', `The response_type "${responseType}" is not supported: send response_type=code.`)
  if (client.grantType !== 'authorization_code') {
    throw fail('unauthorized_client', `Client "${client.clientId}" is registered for client credentials and cannot use the authorization code grant.`)
  }
  const granted = grantScopes(parseScopeParam(params.get('scope')), client.scopes)
  if ('problem' in granted) throw fail('invalid_scope', granted.problem)
  const pkce = readPkce(params, client, fail)
  const user = findUser(params, deps.directory)
  ctx.identity = `${user.id} via OAuth client ${client.clientId}`

  const settings = authSettings(ctx)
  if (settings.consent === 'deny' || decision === 'deny') throw fail('access_denied', `The user ${user.id} denied the request of ${client.name}.`)
  if (decision === undefined) {
    const ask = settings.consent === 'page' || client.consent === 'page'
    if (ask && !deps.consents.covers(user.id, client.clientId, granted.scopes)) {
      const fields: Record<string, string> = {}
      for (const name of FORWARDED) {
        const value = name === 'login_hint' ? user.id : params.get(name)
        if (value !== undefined) fields[name] = value
      }
      return consentPage({ action: `${deps.authOrigin}/oauth2/authorize`, clientName: client.name, userName: user.name, scopes: granted.scopes, fields })
    }
  } else if (decision !== 'allow') {
    throw fail('invalid_request', `The consent decision "${decision}" is not known: the consent form sends decision=allow or decision=deny.`)
  }

  const consent = deps.consents.grant(user.id, client.clientId, granted.scopes, ctx.receivedAt, deps.newId)
  const value = deps.newCode()
  const code = deps.codes.issue(
    {
      code: value,
      family: value,
      clientId: client.clientId,
      userId: user.id,
      consentId: consent.id,
      scopes: granted.scopes,
      redirectUri: params.get('redirect_uri') ?? null,
      ...pkce,
    },
    ctx.receivedAt,
  )
  return empty(302, { location: redirectTo(match.uri, { code: code.code, state }), 'cache-control': 'no-store' })
}

function findClient(params: Params, clients: ClientRegistry): OAuthClient {
  const clientId = params.get('client_id')
  if (clientId === undefined) throw new AuthorizePageError('Missing client_id', 'The authorization request has no client_id. Send the client ID of an authorization code client.')
  const client = clients.get(clientId)
  if (!client) throw new AuthorizePageError('Unknown client', `No OAuth client has the ID "${clientId}". Check the client ID, or create the client first.`)
  return client
}

function findUser(params: Params, directory: Directory): User {
  const hint = params.get('login_hint')
  const user = hint === undefined ? (directory.user(DEFAULT_LOGIN) ?? directory.users.all()[0]) : directory.user(hint)
  if (user) return user
  const known = directory.users.all().map((u) => u.id).join(', ') || 'none'
  throw new AuthorizePageError('Unknown user', `svc-mock signs in the user named by login_hint, but there is no user "${hint ?? DEFAULT_LOGIN}" (users: ${known}).`)
}

function readPkce(
  params: Params,
  client: OAuthClient,
  fail: (error: AuthorizeErrorCode, description: string) => AuthorizeRedirectError,
): { codeChallenge: string | null; codeChallengeMethod: 'S256' | 'plain' | null } {
  const challenge = params.get('code_challenge')
  const method = params.get('code_challenge_method')
  if (challenge === undefined) {
    if (method !== undefined) throw fail('invalid_request', 'code_challenge_method is sent without code_challenge.')
    if (client.pkce === 'required') throw fail('invalid_request', `Client "${client.clientId}" requires PKCE: send code_challenge and code_challenge_method=S256.`)
    return { codeChallenge: null, codeChallengeMethod: null }
  }
  const chosen = method ?? 'plain'
  if (chosen !== 'S256' && chosen !== 'plain') throw fail('invalid_request', `The code_challenge_method "${chosen}" is not supported: use S256 (or plain).`)
  if (!PKCE_CHALLENGE.test(challenge)) throw fail('invalid_request', 'The code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".')
  return { codeChallenge: challenge, codeChallengeMethod: chosen }
}

/** The parameters of an authorization request: the query string, or the consent form's body. */
export async function authorizeParams(ctx: RequestContext): Promise<{ params: Map<string, string>; decision: string | undefined }> {
  const params = new Map<string, string>()
  for (const [name, value] of ctx.url.searchParams) if (value !== '' && !params.has(name)) params.set(name, value)
  let decision: string | undefined
  if (ctx.method === 'POST') {
    const text = (await ctx.body?.text()) ?? ''
    for (const [name, value] of new URLSearchParams(text)) {
      if (name === 'decision') decision = value
      else if (value !== '' && !params.has(name)) params.set(name, value)
    }
    decision ??= ''
    ctx.journalBody = { ...Object.fromEntries(params), decision }
  }
  return { params, decision }
}
