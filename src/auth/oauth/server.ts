/**
 * The OAuth 2.0 authorization server: its stores (clients, consents, codes, refresh tokens), its
 * signing keys, its routes (`auth.token`, `auth.authorize`, `auth.consent`, `auth.discovery`,
 * `auth.jwks`) and the access-token verifier it plugs into the API access gate. Ids, secrets,
 * codes and refresh tokens come from its own seeded generator, so runs are repeatable.
 */
import type { Clock } from '../../kernel/clock.js'
import type { FixtureRecord } from '../../kernel/fixtures.js'
import type { SeededIds } from '../../kernel/ids.js'
import { json, type Reply } from '../../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../../kernel/route.js'
import { type SettingsTree, readSection } from '../../kernel/settings.js'
import { FORM_BODY_LIMIT, TOKEN_PATH } from '../constants.js'
import type { Directory } from '../directory.js'
import type { AccessGate } from '../gate.js'
import { AuthSettings, authSettings } from '../settings.js'
import { authorize, authorizeParams } from './authorize.js'
import { authenticateClient } from './client-auth.js'
import { ClientRegistry, DEVICE_CODE_GRANT, type OAuthClient } from './clients.js'
import { ConsentStore } from './consents.js'
import { DEVICE_AUTHORIZATION_PATH, DEVICE_VERIFICATION_PATH, DeviceFlow } from './device.js'
import { DeviceCodeStore } from './device-codes.js'
import { discoveryResponse } from './discovery.js'
import { authorizationCodeGrant } from './grants/authorization-code.js'
import { clientCredentialsGrant } from './grants/client-credentials.js'
import { deviceCodeGrant } from './grants/device-code.js'
import type { GrantHandler, GrantServices } from './grants/grant.js'
import { refreshTokenGrant } from './grants/refresh-token.js'
import { type SigningKeyFixture, SigningKeys } from './keys.js'
import { Revocations } from './revocations.js'
import { codeStore, refreshTokenStore } from './single-use-store.js'
import { readTokenParams } from './token-request.js'
import { TokenIssuer } from './tokens.js'
import { accessTokenVerifier } from './verify.js'
import { NO_STORE, OAuthError, TOKEN_SCENARIO_ERRORS, invalidRequest, tokenScenarioError, unsupportedGrantType } from './wire.js'

const GRANTS: Readonly<Record<string, GrantHandler>> = {
  client_credentials: clientCredentialsGrant,
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  [DEVICE_CODE_GRANT]: deviceCodeGrant,
}

export interface OAuthServerDeps {
  readonly gate: AccessGate
  readonly directory: Directory
  readonly authUrl: string
  readonly baseUrl: string
  /** The run's seeded id generator (OAuth forks a generator of its own from it). */
  readonly ids: SeededIds
  readonly clock: Clock
  /** The run's settings (without scenarios): what `issueToken()` and key preparation read. */
  readonly settings: () => SettingsTree
}

export class OAuthServer {
  readonly clients = new ClientRegistry()
  readonly consents = new ConsentStore()
  readonly codes = codeStore()
  readonly refreshTokens = refreshTokenStore()
  readonly keys = new SigningKeys()
  readonly revocations = new Revocations()
  readonly deviceCodes = new DeviceCodeStore()
  readonly device: DeviceFlow
  readonly issuer: TokenIssuer
  readonly deps: OAuthServerDeps
  readonly ids: SeededIds
  readonly #services: GrantServices

  constructor(deps: OAuthServerDeps) {
    this.deps = deps
    // A generator of its own, so OAuth traffic never shifts other domains' ids.
    this.ids = deps.ids.fork(0x0a0a7001)
    this.issuer = new TokenIssuer({ keys: this.keys, issuer: deps.authUrl, audience: deps.baseUrl, newId: () => this.ids.uuid(), revocations: this.revocations })
    this.#services = {
      issuer: this.issuer,
      codes: this.codes,
      refreshTokens: this.refreshTokens,
      consents: this.consents,
      directory: deps.directory,
      revocations: this.revocations,
      deviceCodes: this.deviceCodes,
      realClock: deps.clock.mode === 'real',
      newToken: () => this.ids.token(48),
    }
    this.device = new DeviceFlow({
      store: this.deviceCodes,
      clients: this.clients,
      consents: this.consents,
      directory: deps.directory,
      clock: deps.clock,
      authOrigin: deps.authUrl,
      newDeviceCode: () => this.ids.token(48),
      next: () => this.ids.next(),
      newId: () => this.ids.uuid(),
      runSettings: () => this.runSettings(),
    })
    deps.gate.addVerifier(
      accessTokenVerifier({ keys: this.keys, clients: this.clients, directory: deps.directory, revocations: this.revocations, issuer: deps.authUrl, audience: deps.baseUrl }),
    )
  }

  /**
   * Loads the fixtures' clients and pinned keys. Signing keys are made on first use, not here:
   * making one in the background at start measurably delayed the first answers on a small machine.
   */
  async load(clients: readonly FixtureRecord<OAuthClient>[], keys: readonly FixtureRecord<SigningKeyFixture>[]): Promise<void> {
    await this.keys.load(keys)
    this.clients.clients.seed(clients.map((c) => c.value))
  }

  /** Back to the fixtures' clients and secrets; consents, codes and refresh tokens are dropped. */
  reset(): void {
    this.ids.reset()
    this.clients.clients.reset()
    this.consents.consents.reset()
    this.codes.reset()
    this.refreshTokens.reset()
    this.deviceCodes.reset()
    this.revocations.reset()
  }

  /**
   * Forgets what a deleted client was granted: consents, codes, refresh tokens and device codes
   * (none of them can be used without it), so nothing held names a client that is not.
   */
  forgetClient(clientId: string): void {
    this.consents.forgetClient(clientId)
    this.codes.forgetClient(clientId, (c) => c.code, (c) => c.clientId)
    this.refreshTokens.forgetClient(clientId, (t) => t.token, (t) => t.clientId)
    this.deviceCodes.forgetClient(clientId)
  }

  runSettings(): AuthSettings {
    return readSection(this.deps.settings(), 'auth', AuthSettings)
  }

  get services(): GrantServices {
    return this.#services
  }

  routes(): RouteDefinition[] {
    return [
      {
        id: 'auth.token',
        method: 'POST',
        path: TOKEN_PATH,
        origin: 'auth',
        summary: 'Token endpoint: client_credentials, authorization_code, refresh_token and device_code grants',
        bodyLimit: FORM_BODY_LIMIT,
        secretResponse: true,
        resolve: (ctx) => this.#token(ctx),
        scenarioErrors: TOKEN_SCENARIO_ERRORS,
        renderError: (error, ctx) => (error instanceof OAuthError ? error.replyTo(ctx.headers) : error.toReply()),
        scenarioError: (code, ctx, message) => tokenScenarioError(code, ctx.headers, message),
      },
      {
        id: 'auth.authorize',
        method: 'GET',
        path: '/oauth2/authorize',
        origin: 'auth',
        summary: 'Authorize step of the authorization code grant: consent, then a redirect with a single-use code',
        resolve: async (ctx) => {
          const { params } = await authorizeParams(ctx)
          return await authorize(ctx, params, this.#authorizeDeps())
        },
      },
      {
        id: 'auth.consent',
        method: 'POST',
        path: '/oauth2/authorize',
        origin: 'auth',
        summary: 'The consent page\'s form: Allow or Deny',
        bodyLimit: FORM_BODY_LIMIT,
        resolve: async (ctx) => {
          const { params, decision } = await authorizeParams(ctx)
          return await authorize(ctx, params, this.#authorizeDeps(), decision)
        },
      },
      {
        id: 'auth.deviceAuthorization',
        method: 'POST',
        path: DEVICE_AUTHORIZATION_PATH,
        origin: 'auth',
        summary: 'Device authorization endpoint (RFC 8628): a device code and a user code',
        bodyLimit: FORM_BODY_LIMIT,
        secretResponse: true,
        resolve: (ctx) => this.device.authorize(ctx),
        renderError: (error, ctx) => (error instanceof OAuthError ? error.replyTo(ctx.headers) : error.toReply()),
      },
      {
        id: 'auth.deviceVerification',
        method: 'GET',
        path: DEVICE_VERIFICATION_PATH,
        origin: 'auth',
        summary: 'Device verification page: enter or confirm the user code, then Allow or Deny',
        resolve: (ctx) => this.device.page(ctx),
      },
      {
        id: 'auth.deviceDecision',
        method: 'POST',
        path: DEVICE_VERIFICATION_PATH,
        origin: 'auth',
        summary: "The device verification page's form: Allow or Deny",
        bodyLimit: FORM_BODY_LIMIT,
        resolve: (ctx) => this.device.decide(ctx),
      },
      {
        id: 'auth.discovery',
        method: 'GET',
        path: '/.well-known/openid-configuration',
        origin: 'auth',
        summary: 'Authorization server metadata (OpenID discovery document)',
        resolve: () => discoveryResponse(this.deps.authUrl),
      },
      {
        id: 'auth.metadata',
        method: 'GET',
        path: '/.well-known/oauth-authorization-server',
        origin: 'auth',
        summary: 'Authorization server metadata (RFC 8414): the same document',
        resolve: () => discoveryResponse(this.deps.authUrl),
      },
      {
        id: 'auth.jwks',
        method: 'GET',
        path: '/.well-known/jwks.json',
        origin: 'auth',
        summary: 'The public keys that verify access tokens (JWKS)',
        resolve: async (ctx) => json(await this.keys.jwks(authSettings(ctx).tokenAlgorithm)),
      },
    ]
  }

  async #token(ctx: RequestContext): Promise<Reply> {
    const params = await readTokenParams(ctx)
    const client = authenticateClient(ctx, params, this.clients)
    const grantType = params.get('grant_type')
    if (grantType === undefined) {
      throw invalidRequest(`The parameter "grant_type" is missing: send one of ${Object.keys(GRANTS).join(', ')}.`)
    }
    const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined
    if (!grant) {
      throw unsupportedGrantType(`The grant_type "${grantType}" is not supported. Supported: ${Object.keys(GRANTS).join(', ')}.`)
    }
    const body = await grant({ ctx, params, client, settings: authSettings(ctx) }, this.#services)
    return json(body, { status: 200, headers: NO_STORE })
  }

  #authorizeDeps(): Parameters<typeof authorize>[2] {
    return {
      clients: this.clients,
      directory: this.deps.directory,
      consents: this.consents,
      codes: this.codes,
      authOrigin: this.deps.authUrl,
      newCode: () => this.ids.token(32),
      newId: () => this.ids.uuid(),
    }
  }
}
