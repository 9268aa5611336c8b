/**
 * What `svc-mock verify` is asked to do, from its flags and their variables, checked: the team's
 * addresses, its credentials, the element and webhook to probe, the limits and the outputs. A bad
 * combination or value is a VerifyUsageError (exit 2) that names the flag or variable, never a
 * secret's value.
 */
import { existsSync, readFileSync } from 'node:fs'
import { type FlagName, type Given, VerifyUsageError, readFlags } from './flags.js'

export const DEFAULT_TIMEOUT_MS = 10_000

/** A side's values for the probes' placeholders: `collection` … `element`, and `webhook` (a path). */
export type Place = Readonly<Record<string, string>>

/** The addresses of one side, by the names probes give (`auth`, `base`, `webhook`). */
export type Origins = Readonly<Record<'auth' | 'base' | 'webhook', string>>

export interface Credentials {
  readonly client?: { readonly id: string; readonly secret: string }
  readonly key?: { readonly value: string; readonly kind: 'user' | 'app' }
}

export interface VerifyOptions {
  readonly help: boolean
  /** The team's addresses; undefined with `against`. */
  readonly origins: Origins | undefined
  readonly credentials: Credentials
  /** The team's element parts and webhook path, as the probes' placeholders take them. */
  readonly place: Place
  readonly allowWrites: boolean
  readonly routes: readonly string[]
  readonly timeoutMs: number
  /** PEM text of `--ca`. */
  readonly ca: string | undefined
  readonly report: { readonly file: string; readonly format: 'json' | 'junit' } | undefined
  readonly save: string | undefined
  readonly against: string | undefined
}

/** Reads and checks the flags after `verify`. */
export function verifyOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): VerifyOptions {
  const given = readFlags(argv, env)
  const help = given.on('help')
  const against = given.string('against')
  if (help) return { help, origins: undefined, credentials: {}, place: {}, allowWrites: false, routes: [], timeoutMs: DEFAULT_TIMEOUT_MS, ca: undefined, report: undefined, save: undefined, against: undefined }
  if (against !== undefined) {
    for (const name of ['target', 'auth-url', 'base-url', 'webhook-url', 'save'] as const) {
      const clash = given.string(name)
      if (clash !== undefined) throw new VerifyUsageError(`${against.from} compares svc-mock with saved answers, offline: it takes no ${clash.from}`)
    }
  }
  const webhook = webhookOf(given)
  const origins = against === undefined ? originsOf(given, webhook?.origin) : undefined
  const report = given.string('report')
  const format = report === undefined ? undefined : /\.json$/i.test(report.value) ? 'json' : /\.xml$/i.test(report.value) ? 'junit' : undefined
  if (report !== undefined && format === undefined) throw new VerifyUsageError(`${report.from} must name a .json or a .xml (JUnit) file, got "${report.value}"`)
  return {
    help,
    origins,
    credentials: against === undefined ? credentialsOf(given) : {},
    place: { ...elementOf(given), ...(webhook === undefined ? {} : { webhook: webhook.path }) },
    allowWrites: given.on('allow-writes'),
    routes: given.list('routes'),
    timeoutMs: timeoutOf(given),
    ca: caOf(given),
    report: report === undefined || format === undefined ? undefined : { file: report.value, format },
    save: given.string('save')?.value,
    against: against?.value,
  }
}

/** An absolute http(s) URL's origin; a path, a user name or a password in it is refused (without echoing it). */
function originOf(value: string, from: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new VerifyUsageError(`${from} must be an absolute URL such as https://acme.eu-1.celonis.cloud, got "${value}"`)
  }
  if (url.username !== '' || url.password !== '') throw new VerifyUsageError(`${from} must not hold a user name or password: give the credentials with --client-id/--client-secret or --api-key`)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new VerifyUsageError(`${from} must use https or http, got "${url.protocol}"`)
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') throw new VerifyUsageError(`${from} is the team's origin, without a path: ${url.origin}`)
  return url.origin
}

function originsOf(given: Given, webhookOrigin: string | undefined): Origins {
  const read = (name: FlagName): string | undefined => {
    const value = given.string(name)
    return value === undefined ? undefined : originOf(value.value, value.from)
  }
  const target = read('target')
  const base = read('base-url') ?? target
  if (base === undefined) throw new VerifyUsageError('verify needs the team to compare with: --target URL (or SVC_MOCK_VERIFY_TARGET), or --against DIR for saved answers')
  return { base, auth: read('auth-url') ?? target ?? base, webhook: webhookOrigin ?? read('webhook-url') ?? target ?? base }
}

function credentialsOf(given: Given): Credentials {
  const id = given.string('client-id')
  const secret = given.string('client-secret')
  const key = given.string('api-key')
  const kind = given.string('key-kind')
  if ((id === undefined) !== (secret === undefined)) throw new VerifyUsageError(id === undefined ? `${secret?.from ?? '--client-secret'} needs --client-id too` : `${id.from} needs --client-secret too`)
  if (key !== undefined && kind === undefined) throw new VerifyUsageError(`${key.from} needs --key-kind user (a user API key, sent as Bearer) or app (an application key, sent as AppKey)`)
  if (key === undefined && kind !== undefined) throw new VerifyUsageError(`${kind.from} describes --api-key, which is not given`)
  if (kind !== undefined && kind.value !== 'user' && kind.value !== 'app') throw new VerifyUsageError(`${kind.from} must be user or app, got "${kind.value}"`)
  if (id === undefined && key === undefined) {
    throw new VerifyUsageError("verify needs the team's credentials: --client-id and --client-secret, or --api-key with --key-kind user|app (or their SVC_MOCK_VERIFY_ variables)")
  }
  return {
    ...(id !== undefined && secret !== undefined ? { client: { id: id.value, secret: secret.value } } : {}),
    ...(key !== undefined ? { key: { value: key.value, kind: kind?.value === 'user' ? 'user' : 'app' } } : {}),
  }
}

function elementOf(given: Given): Place {
  const element = given.string('element')
  if (element === undefined) return {}
  const parts = element.value.split('/')
  if (parts.length !== 5 || parts.some((part) => part.trim() === '')) {
    throw new VerifyUsageError(`${element.from} must be collection/storage/facet/view/element (five parts), got "${element.value}"`)
  }
  const [collection = '', storage = '', facet = '', view = '', id = ''] = parts
  return { collection, storage, facet, view, element: id }
}

/** `--webhook`: a full URL (its origin is then the webhook address) or a path on the webhook address. */
function webhookOf(given: Given): { path: string; origin?: string } | undefined {
  const webhook = given.string('webhook')
  if (webhook === undefined) return undefined
  if (webhook.value.startsWith('/')) return { path: webhook.value }
  let url: URL
  try {
    url = new URL(webhook.value)
  } catch {
    throw new VerifyUsageError(`${webhook.from} must be the webhook's URL (https://…/hooks/…) or its path (/hooks/…), got "${webhook.value}"`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new VerifyUsageError(`${webhook.from} must use https or http`)
  return { path: `${url.pathname}${url.search}`, origin: url.origin }
}

function timeoutOf(given: Given): number {
  const timeout = given.string('timeout')
  if (timeout === undefined) return DEFAULT_TIMEOUT_MS
  const ms = Number(timeout.value)
  if (!Number.isSafeInteger(ms) || ms < 1) throw new VerifyUsageError(`${timeout.from} must be a whole number of milliseconds >= 1, got "${timeout.value}"`)
  return ms
}

function caOf(given: Given): string | undefined {
  const ca = given.string('ca')
  if (ca === undefined) return undefined
  if (!existsSync(ca.value)) throw new VerifyUsageError(`${ca.from}: ${ca.value} does not exist`)
  const pem = readFileSync(ca.value, 'utf8')
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new VerifyUsageError(`${ca.from}: ${ca.value} holds no PEM certificate`)
  return pem
}
