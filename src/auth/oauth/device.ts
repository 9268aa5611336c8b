/**
 * The device authorization grant's user side (RFC 8628): the device authorization endpoint
 * (`POST /oauth2/device_authorization`, Spring Authorization Server's path) hands out a device
 * code and a user code; a person approves or denies the user code on the verification page
 * (`/oauth2/device_verification`), the dashboard or the control plane. By default (consent
 * `auto`) the code is approved at once as the default user, as the authorize step consents at
 * once; with the consent page on it stays pending until someone decides.
 */
import type { Clock } from '../../kernel/clock.js'
import { ConflictError, NotFoundError } from '../../kernel/errors.js'
import { json, type Reply } from '../../kernel/reply.js'
import type { RequestContext } from '../../kernel/route.js'
import { DEFAULT_LOGIN } from '../constants.js'
import type { Directory, User } from '../directory.js'
import { authSettings, type AuthSettings } from '../settings.js'
import { authenticateClient } from './client-auth.js'
import type { ClientRegistry, OAuthClient } from './clients.js'
import type { ConsentStore } from './consents.js'
import { type DeviceCode, type DeviceCodeInfo, type DeviceCodeStore, normalizeUserCode } from './device-codes.js'
import { devicePage } from './pages.js'
import { grantScopes, parseScopeParam } from './scopes.js'
import { readTokenParams } from './token-request.js'
import { NO_STORE, invalidScope, unauthorizedClient } from './wire.js'

export const DEVICE_AUTHORIZATION_PATH = '/oauth2/device_authorization'
export const DEVICE_VERIFICATION_PATH = '/oauth2/device_verification'

export interface DeviceFlowDeps {
  readonly store: DeviceCodeStore
  readonly clients: ClientRegistry
  readonly consents: ConsentStore
  readonly directory: Directory
  readonly clock: Clock
  readonly authOrigin: string
  readonly newDeviceCode: () => string
  readonly next: () => number
  readonly newId: () => string
  /** The run's auth settings, for decisions made outside a request (the control plane). */
  readonly runSettings: () => AuthSettings
}

export class DeviceFlow {
  readonly #deps: DeviceFlowDeps

  constructor(deps: DeviceFlowDeps) {
    this.#deps = deps
  }

  /** `POST /oauth2/device_authorization`: a device code and a user code for the client's scopes. */
  async authorize(ctx: RequestContext): Promise<Reply> {
    const params = await readTokenParams(ctx)
    const client = authenticateClient(ctx, params, this.#deps.clients)
    if (client.grantType !== 'device_code') {
      throw unauthorizedClient(`Client "${client.clientId}" is not registered for the device authorization grant (it uses ${client.grantType}).`)
    }
    const granted = grantScopes(parseScopeParam(params.get('scope')), client.scopes)
    if ('problem' in granted) throw invalidScope(granted.problem)
    const settings = authSettings(ctx)
    const code = this.#deps.store.put({
      deviceCode: this.#deps.newDeviceCode(),
      userCode: this.#deps.store.newUserCode(this.#deps.next),
      clientId: client.clientId,
      scopes: granted.scopes,
      issuedAt: ctx.receivedAt,
      interval: settings.devicePollInterval,
      status: 'pending',
      userId: null,
      consentId: null,
      lastPollAt: null,
      pendingPolls: settings.devicePendingPolls,
      slowedDown: false,
    })
    const asks = settings.consent === 'page' || client.consent === 'page'
    if (settings.consent === 'deny') this.#decide(code, 'deny')
    else if (!asks) this.#decide(code, 'allow', this.#defaultUser()?.id ?? DEFAULT_LOGIN)
    const verification = `${this.#deps.authOrigin}${DEVICE_VERIFICATION_PATH}`
    return json(
      {
        device_code: code.deviceCode,
        user_code: code.userCode,
        verification_uri: verification,
        verification_uri_complete: `${verification}?user_code=${encodeURIComponent(code.userCode)}`,
        expires_in: settings.deviceCodeLifetime,
        interval: code.interval,
      },
      { headers: NO_STORE },
    )
  }

  /** `GET /oauth2/device_verification`: a form for the user code, or the Allow/Deny page for one. */
  page(ctx: RequestContext): Reply {
    const userCode = ctx.url.searchParams.get('user_code')
    if (userCode === null || userCode.trim() === '') return devicePage({ kind: 'enter', action: this.#action() })
    return this.#review(ctx, userCode, ctx.url.searchParams.get('login_hint') ?? undefined)
  }

  /** `POST /oauth2/device_verification`: the person's decision on the page. */
  async decide(ctx: RequestContext): Promise<Reply> {
    const form = new URLSearchParams((await ctx.body?.text()) ?? '')
    const userCode = form.get('user_code') ?? ''
    const decision = form.get('decision')
    ctx.journalBody = { user_code: userCode, decision, login_hint: form.get('login_hint') }
    if (decision !== 'allow' && decision !== 'deny') return this.#review(ctx, userCode, form.get('login_hint') ?? undefined)
    const code = this.#live(userCode, ctx.receivedAt, authSettings(ctx))
    if (!code || code.status !== 'pending') return devicePage({ kind: 'invalid', action: this.#action() }, 400)
    const user = this.#user(form.get('login_hint') ?? undefined)
    if (!user) return devicePage({ kind: 'invalid', action: this.#action() }, 400)
    this.#decide(code, decision, user.id)
    ctx.identity = `${user.id} (device verification)`
    return devicePage({ kind: decision === 'allow' ? 'approved' : 'denied', clientName: this.#clientName(code) })
  }

  /** The codes the control plane and the dashboard list (never the device code itself). */
  list(): DeviceCodeInfo[] {
    const now = this.#deps.clock.now()
    const lifetime = this.#deps.runSettings().deviceCodeLifetime
    return this.#deps.store.all().map((code) => ({
      userCode: code.userCode,
      clientId: code.clientId,
      clientName: this.#clientName(code),
      scopes: code.scopes,
      status: now >= code.issuedAt + lifetime * 1000 && code.status !== 'used' ? 'expired' : code.status,
      expiresAt: new Date(code.issuedAt + lifetime * 1000).toISOString(),
      userId: code.userId,
    }))
  }

  /** Approves or denies a pending code from the control plane or in-process. */
  async resolve(userCode: string, decision: 'allow' | 'deny', userId?: string): Promise<DeviceCodeInfo> {
    const code = this.#deps.store.byUserCode(userCode)
    const settings = this.#deps.runSettings()
    if (!code || !this.#live(userCode, this.#deps.clock.now(), settings)) throw new NotFoundError(`No device code with the user code ${userCode} is waiting (unknown or expired).`, 'userCode')
    if (code.status !== 'pending') throw new ConflictError(`The device code ${code.userCode} is ${code.status} already.`, 'userCode')
    const user = this.#user(userId)
    if (!user) throw new NotFoundError(`No user ${userId ?? DEFAULT_LOGIN}.`, 'userId')
    this.#decide(code, decision, user.id)
    const info = this.list().find((c) => c.userCode === code.userCode)
    if (!info) throw new NotFoundError(`No device code ${userCode}.`, 'userCode')
    return info
  }

  /** Records a decision; an approval is a consent of the user to the client's scopes. */
  #decide(code: DeviceCode, decision: 'allow' | 'deny', userId?: string): void {
    if (decision === 'deny' || userId === undefined) {
      this.#deps.store.put({ ...code, status: 'denied', userId: userId ?? null })
      return
    }
    const consent = this.#deps.consents.grant(userId, code.clientId, code.scopes, this.#deps.clock.now(), this.#deps.newId)
    this.#deps.store.put({ ...code, status: 'approved', userId, consentId: consent.id })
  }

  #review(ctx: RequestContext, userCode: string, loginHint: string | undefined): Reply {
    const code = this.#live(userCode, ctx.receivedAt, authSettings(ctx))
    if (!code) return devicePage({ kind: 'invalid', action: this.#action() }, 400)
    if (code.status !== 'pending') return devicePage({ kind: code.status === 'denied' ? 'denied' : 'approved', clientName: this.#clientName(code) })
    const user = this.#user(loginHint)
    if (!user) return devicePage({ kind: 'invalid', action: this.#action() }, 400)
    return devicePage({ kind: 'review', action: this.#action(), userCode: code.userCode, clientName: this.#clientName(code), userName: user.name, loginHint: user.id, scopes: code.scopes })
  }

  /** The code of this user code, unless it has expired. */
  #live(userCode: string, now: number, settings: AuthSettings): DeviceCode | undefined {
    const code = this.#deps.store.byUserCode(normalizeUserCode(userCode))
    if (!code || now >= code.issuedAt + settings.deviceCodeLifetime * 1000) return undefined
    return code
  }

  #defaultUser(): User | undefined {
    return this.#deps.directory.user(DEFAULT_LOGIN) ?? this.#deps.directory.users.all()[0]
  }

  #user(id: string | undefined): User | undefined {
    return id === undefined || id === '' ? this.#defaultUser() : this.#deps.directory.user(id)
  }

  #clientName(code: DeviceCode): string {
    const client: OAuthClient | undefined = this.#deps.clients.get(code.clientId)
    return client?.name ?? code.clientId
  }

  #action(): string {
    return `${this.#deps.authOrigin}${DEVICE_VERIFICATION_PATH}`
  }
}
