/**
 * The normalizer: what is meant to differ between the team and svc-mock is made the same before
 * the comparison (docs/verify.md lists it). In text (error messages, text bodies, header values):
 * the credentials become `[secret]`, each side's addresses `{base_url}`, `{auth_url}`,
 * `{webhook_url}` and `{host}`, the element's parts and the webhook `{collection}` … `{webhook}`, the
 * client id `{client_id}`, JWTs `{jwt}`, GUIDs `{uuid}`, ISO 8601 times `{time}`, the team's names
 * `{team}`, then the probe's own rules. A member whose name says it holds a secret is `[secret]`.
 */
import type { JsonValue } from '../kernel/json.js'
import type { Origins } from './options.js'

/** One side's values that stand for something both sides have. */
export interface NormalizeContext {
  readonly origins: Origins
  /** Values and the placeholder each becomes (element parts, webhook, client id). */
  readonly literals: ReadonlyArray<readonly [string, string]>
  /** Credential values: never shown, on any side. */
  readonly secrets: readonly string[]
  /** The team's names, replaced where they stand as a whole word. */
  readonly teamNames: readonly string[]
}

export interface TextRule {
  readonly find: string
  readonly as: string
}

const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/g
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi
const TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g
/** Member names that hold secrets (the recorder's list). */
const SECRET_MEMBER = /token|secret|password|apikey|api_key|credential|session/i
const SHORTEST_SECRET = 4

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Replaces every occurrence, literally. */
const replaceAll = (text: string, find: string, as: string): string => (find === '' ? text : text.split(find).join(as))

/** Replaces a value where it stands as a whole word (not inside a longer name). */
const replaceWord = (text: string, find: string, as: string): string =>
  find.trim() === '' ? text : text.replace(new RegExp(`(?<![\\w-])${escape(find)}(?![\\w-])`, 'g'), () => as)

/** The placeholder of each origin and host of a side, base first (an origin shared by several addresses reads as `{base_url}`). */
function addressLiterals(origins: Origins): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = []
  for (const name of ['base', 'auth', 'webhook'] as const) out.push([origins[name], `{${name}_url}`])
  for (const name of ['base', 'auth', 'webhook'] as const) {
    const url = new URL(origins[name])
    out.push([url.host, '{host}'])
    if (/[a-z]/i.test(url.hostname) && url.hostname !== url.host) out.push([url.hostname, '{host}'])
  }
  return out
}

/** A text with what is meant to differ made the same. */
export function normalizeText(text: string, context: NormalizeContext, rules: readonly TextRule[] = []): string {
  let out = text
  for (const secret of context.secrets) if (secret.length >= SHORTEST_SECRET) out = replaceAll(out, secret, '[secret]')
  for (const [value, as] of addressLiterals(context.origins)) out = replaceAll(out, value, as)
  for (const [value, as] of [...context.literals].sort((a, b) => b[0].length - a[0].length)) out = replaceWord(out, value, as)
  out = out.replace(JWT, '{jwt}').replace(UUID, '{uuid}').replace(TIME, '{time}')
  for (const name of context.teamNames) out = replaceWord(out, name, '{team}')
  for (const rule of rules) out = out.replace(new RegExp(rule.find, 'g'), rule.as)
  return out
}

/** A JSON value with every string normalized, and the values of secret-named members hidden. */
export function normalizeJson(value: JsonValue, context: NormalizeContext, rules: readonly TextRule[] = []): JsonValue {
  if (typeof value === 'string') return normalizeText(value, context, rules)
  if (Array.isArray(value)) return value.map((item) => normalizeJson(item, context, rules))
  if (value === null || typeof value !== 'object') return value
  const out = Object.create(null) as Record<string, JsonValue>
  for (const [name, member] of Object.entries(value)) out[name] = SECRET_MEMBER.test(name) && typeof member === 'string' ? '[secret]' : normalizeJson(member, context, rules)
  return out
}

/** The headers the platform documents, which verify compares (others, `Date` and the like, never). */
export const COMPARED_HEADERS = ['www-authenticate', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'location', 'deprecation'] as const

/** A documented header's value as compared: a challenge by its scheme and parameter names, numbers as `{n}`, links normalized. */
export function normalizeHeader(name: string, value: string, context: NormalizeContext): string {
  const trimmed = value.trim()
  if (name === 'www-authenticate') {
    return trimmed
      .split(/,\s*(?=[A-Za-z][\w-]*(?:\s+|$)(?![=]))/)
      .map((challenge) => {
        const [scheme = '', ...rest] = challenge.trim().split(/\s+/)
        const params = [...rest.join(' ').matchAll(/([\w-]+)\s*=/g)].map((m) => (m[1] ?? '').toLowerCase())
        return [scheme.toLowerCase().replace(/^./, (c) => c.toUpperCase()), params.join(', ')].filter((part) => part !== '').join(' ')
      })
      .join('; ')
  }
  if (name === 'retry-after' || name.startsWith('x-ratelimit-')) return /^\d+$/.test(trimmed) ? '{n}' : normalizeText(trimmed, context)
  return normalizeText(trimmed, context)
}

/** The media type of a Content-Type, in lower case, without its parameters (`application/json`). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}
