/**
 * Helpers for the OAuth contract tests: token requests in each encoding (urlencoded, multipart,
 * query string: the parameters that may come there, with the secrets in a urlencoded body) and
 * client authentication method, the authorize step without a browser, and a token's claims.
 */
import { createHash } from 'node:crypto'
import { decodeJwt } from 'jose'
import type { Harness } from './harness.js'

export type Encoding = 'urlencoded' | 'multipart' | 'query'

/** Token parameters that never count from the query string (RFC 6749 section 2.3.1). */
const SECRETS = new Set(['client_secret', 'code', 'refresh_token', 'device_code', 'code_verifier'])
export type Method = 'basic' | 'post'

export interface TokenAnswer {
  status: number
  body: Record<string, unknown>
  headers: Headers
}

export const WEB_APP = { id: 'web-app', secret: 'web-app-secret' } as const
export const CI = { id: 'ci-client', secret: 'ci-secret' } as const
export const CI_POST = { id: 'ci-post-client', secret: 'ci-post-secret' } as const
export const LIMITED = { id: 'limited-client', secret: 'limited-secret' } as const
export const CALLBACK = 'http://127.0.0.1:8765/callback'

/** RFC 6749 section 2.3.1: each part form-encoded, then base64(id:secret). */
export function basic(id: string, secret: string): string {
  const form = (v: string): string => encodeURIComponent(v).replace(/%20/g, '+')
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`
}

export interface TokenRequestOptions {
  encoding?: Encoding
  /** How the client authenticates; `none` sends no credentials. */
  auth?: Method | 'none'
  client?: { id: string; secret: string }
  headers?: Record<string, string>
  /** Another endpoint that takes the same form (the device authorization endpoint). */
  path?: string
}

export async function token(h: Harness, params: Record<string, string>, options: TokenRequestOptions = {}): Promise<TokenAnswer> {
  const { encoding = 'urlencoded', auth = 'basic', client = CI } = options
  const all: Record<string, string> = { ...params }
  const headers: Record<string, string> = { ...options.headers }
  if (auth === 'basic') headers.authorization = basic(client.id, client.secret)
  if (auth === 'post') Object.assign(all, { client_id: client.id, client_secret: client.secret })
  let path = options.path ?? '/oauth2/token'
  let body: string | FormData | undefined
  if (encoding === 'urlencoded') {
    body = new URLSearchParams(all).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (encoding === 'multipart') {
    const form = new FormData()
    for (const [k, v] of Object.entries(all)) form.append(k, v)
    body = form
  } else {
    const entries = Object.entries(all)
    path += `?${new URLSearchParams(entries.filter(([k]) => !SECRETS.has(k))).toString()}`
    const secrets = entries.filter(([k]) => SECRETS.has(k))
    if (secrets.length > 0) {
      body = new URLSearchParams(secrets).toString()
      headers['content-type'] = 'application/x-www-form-urlencoded'
    }
  }
  const response = await h.fetch(path, { method: 'POST', headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), headers: response.headers }
}

/** The authorize step as a browser would start it; answers are not followed. */
export async function authorizeStep(h: Harness, params: Record<string, string>): Promise<Response> {
  return await h.fetch(`/oauth2/authorize?${new URLSearchParams(params).toString()}`, { redirect: 'manual' })
}

/** Runs the authorize step with the defaults (web-app, CALLBACK, state) and returns the code. */
export async function getCode(h: Harness, params: Record<string, string> = {}): Promise<string> {
  const response = await authorizeStep(h, { response_type: 'code', client_id: WEB_APP.id, redirect_uri: CALLBACK, state: 's-1', ...params })
  const location = response.headers.get('location')
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
  const code = new URL(location).searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  return code
}

/** Exchanges a code for tokens as web-app (client secret post). */
export async function exchange(h: Harness, code: string, extra: Record<string, string> = {}): Promise<TokenAnswer> {
  return await token(h, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, ...extra }, { auth: 'post', client: WEB_APP })
}

export function claims(accessToken: unknown): Record<string, unknown> {
  return decodeJwt(String(accessToken))
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
