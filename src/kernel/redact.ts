/**
 * Redaction: the one rule of what never leaves the emulator in clear, used by the journal, the
 * logs, the state, the live events and the recorder alike. Credential headers are redacted here
 * (keeping the scheme of `Authorization`); the names of secret body and query fields are declared
 * by the domains that know them (the token endpoint's `client_secret`, …) and added at start.
 *
 * An exchange with a real service (a proxied call and its answer, a recording of it) is shown
 * through the stricter `foreign()` view of the same rule: svc-mock cannot know that service's
 * fields, so every name that holds a secret-looking word is a secret too, and the caller's own
 * credentials are taken out wherever the answer repeats them.
 */

export const REDACTED = '[redacted]'

/** Headers that carry a credential, in a request or an answer. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token'])

/** A name that holds one of these words names a secret in a foreign exchange (any case). */
const SECRET_WORDS = /token|secret|password|api[-_]?key|credential|session/i

/**
 * The authentication schemes an `Authorization` keeps when redacted (its first word otherwise
 * might be the credential itself, when it has no scheme).
 */
const SCHEMES = new Set(['basic', 'bearer', 'digest', 'appkey', 'token', 'apikey', 'negotiate', 'ntlm', 'dpop', 'hoba', 'mutual', 'aws4-hmac-sha256', 'scram-sha-1', 'scram-sha-256', 'vapid'])

/** A caller's credential shorter than this is not searched for in answers (it would match anything). */
const MIN_SECRET_LENGTH = 4

/** How deep `value()` copies before it redacts the rest wholesale. */
const MAX_DEPTH = 20

export class Redactor {
  readonly #keys: Set<string>
  /** The foreign view's caller credentials (longest first); undefined for the journal's own rule. */
  readonly #caller: readonly string[] | undefined

  constructor(shared?: { readonly keys: Set<string>; readonly caller: readonly string[] }) {
    this.#keys = shared?.keys ?? new Set(['password'])
    this.#caller = shared?.caller
  }

  /** Adds secret field names (matched without regard to case). */
  add(fields: Iterable<string>): void {
    for (const field of fields) this.#keys.add(field.toLowerCase())
  }

  /**
   * The view for an exchange with a real service, whose request carried `request`'s headers: the
   * same rule, plus every header, member and parameter whose name holds token, secret, password,
   * apikey, api_key, credential or session, plus the values of the caller's credential headers
   * wherever they appear.
   */
  foreign(request: Headers): Redactor {
    return new Redactor({ keys: this.#keys, caller: callerSecrets(request) })
  }

  isSecretKey(key: string): boolean {
    const lower = key.toLowerCase()
    return this.#keys.has(lower) || (this.#caller !== undefined && (CREDENTIAL_HEADERS.has(lower) || SECRET_WORDS.test(key)))
  }

  isSecretHeader(name: string): boolean {
    return CREDENTIAL_HEADERS.has(name.toLowerCase()) || (this.#caller !== undefined && SECRET_WORDS.test(name))
  }

  /** A text with the caller's credentials taken out (the journal's own rule leaves it as it is). */
  text(value: string): string {
    if (this.#caller === undefined) return value
    let out = value
    for (const secret of this.#caller) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
    return out
  }

  /**
   * One header's value as it may be shown: a credential redacted (the scheme of an Authorization
   * kept), a Location without the values of its secret parameters (an authorization code).
   */
  header(name: string, value: string): string {
    if (this.isSecretHeader(name)) {
      const scheme = name.toLowerCase().endsWith('authorization') ? /^\s*(\S+)\s/.exec(value)?.[1] : undefined
      return scheme !== undefined && SCHEMES.has(scheme.toLowerCase()) ? `${scheme} ${REDACTED}` : REDACTED
    }
    return this.text(name.toLowerCase() === 'location' ? this.#location(value) : value)
  }

  /** Headers as a plain object with credential values replaced (the scheme of Authorization stays). */
  headers(headers: Headers): Record<string, string> {
    const out: Record<string, string> = {}
    headers.forEach((value, name) => {
      out[name] = this.header(name, value)
    })
    return out
  }

  /**
   * Response headers as a plain object, with secrets out: a redirect's `Location` keeps its address
   * but not the values of secret parameters (an authorization code), and `Set-Cookie` is redacted.
   */
  responseHeaders(headers: Headers): Record<string, string> {
    return this.headers(headers)
  }

  /** A path with the values of secret query parameters redacted. */
  path(url: URL): string {
    const pathname = this.text(url.pathname)
    if (!url.search) return pathname
    const redacted = this.#query(url.search.slice(1))
    return `${pathname}${redacted === undefined ? url.search : `?${redacted}`}`
  }

  /**
   * A copy of a body as a route understood it (form fields, JSON, a webhook's bundle), to show:
   * secret fields redacted to any depth, a credential header given as a `{name, value}` entry (a
   * bundle's `__IMTHEADERS__`) redacted as the header would be, and bytes (a file) shown as their
   * size.
   */
  value(value: unknown, depth = 0): unknown {
    if (depth > MAX_DEPTH) return REDACTED
    if (typeof value === 'string') return this.text(value)
    if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`
    if (Array.isArray(value)) return value.map((item) => this.value(item, depth + 1))
    if (typeof value === 'object' && value !== null) {
      const entry = value as { name?: unknown; value?: unknown }
      const secretHeader = typeof entry.name === 'string' && typeof entry.value === 'string' && this.isSecretHeader(entry.name)
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) {
        const shown = this.isSecretKey(key) || (secretHeader && key === 'value') ? REDACTED : this.value(item, depth + 1)
        // A member named `__proto__` (JSON.parse makes it an own member) stays a member.
        if (key === '__proto__') Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true })
        else out[key] = shown
      }
      return out
    }
    return value
  }

  /** A query string or urlencoded form with secret values replaced, or undefined when it has none. */
  query(query: string): string | undefined {
    return this.#query(query)
  }

  #location(value: string): string {
    const q = value.indexOf('?')
    if (q < 0) return value
    const h = value.indexOf('#', q)
    const redacted = this.#query(value.slice(q + 1, h < 0 ? undefined : h))
    return redacted === undefined ? value : `${value.slice(0, q)}?${redacted}${h < 0 ? '' : value.slice(h)}`
  }

  /** The query with secret values replaced, or undefined when it has none. */
  #query(query: string): string | undefined {
    const params = new URLSearchParams(query)
    let changed = false
    const out = new URLSearchParams()
    for (const [key, value] of params) {
      const shown = this.isSecretKey(key) ? REDACTED : this.text(value)
      if (shown !== value) changed = true
      out.append(key, shown)
    }
    return changed ? out.toString() : undefined
  }
}

/** The values of a request's credential headers (Authorization without its scheme, each cookie's value), longest first. */
function callerSecrets(headers: Headers): string[] {
  const out = new Set<string>()
  headers.forEach((value, name) => {
    if (!CREDENTIAL_HEADERS.has(name) && !SECRET_WORDS.test(name)) return
    if (name === 'cookie') {
      for (const cookie of value.split(';')) out.add(cookie.includes('=') ? cookie.split('=').slice(1).join('=').trim() : cookie.trim())
      return
    }
    out.add(value.trim())
    const credential = /^\s*\S+\s+(.+?)\s*$/.exec(value)?.[1]
    if (credential !== undefined) out.add(credential)
  })
  return [...out].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length)
}
