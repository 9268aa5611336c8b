/**
 * Redaction: the one list of what never leaves the emulator in clear, used by the journal, the
 * logs, the state and the live events alike. Credential headers are redacted here (keeping the
 * scheme of `Authorization`); the names of secret body and query fields are declared by the
 * domains that know them (the token endpoint's `client_secret`, …) and added at start.
 */

export const REDACTED = '[redacted]'

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])

/** How deep `value()` copies before it redacts the rest wholesale. */
const MAX_DEPTH = 20

export class Redactor {
  readonly #keys = new Set<string>(['password'])

  /** Adds secret field names (matched without regard to case). */
  add(fields: Iterable<string>): void {
    for (const field of fields) this.#keys.add(field.toLowerCase())
  }

  isSecretKey(key: string): boolean {
    return this.#keys.has(key.toLowerCase())
  }

  isSecretHeader(name: string): boolean {
    return SECRET_HEADERS.has(name.toLowerCase())
  }

  /** Headers as a plain object with credential values replaced (the scheme of Authorization stays). */
  headers(headers: Headers): Record<string, string> {
    const out: Record<string, string> = {}
    headers.forEach((value, name) => {
      if (!SECRET_HEADERS.has(name)) {
        out[name] = value
        return
      }
      const scheme = name.endsWith('authorization') ? /^\s*(\S+)\s/.exec(value)?.[1] : undefined
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED
    })
    return out
  }

  /**
   * Response headers as a plain object, with secrets out: a redirect's `Location` keeps its address
   * but not the values of secret parameters (an authorization code), and `Set-Cookie` is redacted.
   */
  responseHeaders(headers: Headers): Record<string, string> {
    const out: Record<string, string> = {}
    headers.forEach((value, name) => {
      if (name === 'set-cookie') out[name] = REDACTED
      else if (name === 'location') out[name] = this.#location(value)
      else out[name] = value
    })
    return out
  }

  /** A path with the values of secret query parameters redacted. */
  path(url: URL): string {
    if (!url.search) return url.pathname
    const redacted = this.#query(url.search.slice(1))
    return `${url.pathname}${redacted === undefined ? url.search : `?${redacted}`}`
  }

  /**
   * A copy of a body as a route understood it (form fields, JSON, a webhook's bundle), to show:
   * secret fields redacted to any depth, a credential header given as a `{name, value}` entry (a
   * bundle's `__IMTHEADERS__`) redacted as the header would be, and bytes (a file) shown as their
   * size.
   */
  value(value: unknown, depth = 0): unknown {
    if (depth > MAX_DEPTH) return REDACTED
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

  #location(value: string): string {
    const q = value.indexOf('?')
    if (q < 0) return value
    const h = value.indexOf('#', q)
    const redacted = this.#query(value.slice(q + 1, h < 0 ? undefined : h))
    return redacted === undefined ? value : `${value.slice(0, q)}?${redacted}${h < 0 ? '' : value.slice(h)}`
  }

  /** A query string or urlencoded form with secret values replaced, or undefined when it has none. */
  query(query: string): string | undefined {
    return this.#query(query)
  }

  /** The query with secret values replaced, or undefined when it has none. */
  #query(query: string): string | undefined {
    const params = new URLSearchParams(query)
    let changed = false
    for (const key of new Set(params.keys())) {
      if (this.isSecretKey(key)) {
        params.set(key, REDACTED)
        changed = true
      }
    }
    return changed ? params.toString() : undefined
  }
}
