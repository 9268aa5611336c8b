/**
 * `HeaderFields`: the Fetch `Headers` interface over two plain arrays, for the headers the
 * emulator makes itself (a socket request's, every reply's). It behaves as Fetch `Headers` does
 * where a route or a transport can tell (names compared without case, `get()` joining repeats with
 * ", ", iteration sorted by lower-case name with each Set-Cookie apart, invalid names and values
 * refused with a TypeError, values trimmed), and costs a tenth of one: undici's `Headers` checks
 * its brand and converts its arguments on every call and keeps a Map of entry objects, ~800 bytes
 * for a request's five headers, and the journal keeps a request's and a reply's headers for a
 * thousand requests (bytes every scavenge copies under load: the p99). A Fetch `Response` takes it
 * as it takes any iterable of pairs.
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** What a header value may not hold (Fetch: no NUL, CR or LF). */
const FORBIDDEN_VALUE = /[\0\r\n]/
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

function checkedName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers: "${name}" is an invalid header name.`)
  return lowerCase(name)
}

/**
 * A name in lower case, the same string each time for the names a run keeps seeing (a request's
 * headers live on in the journal: one copy of "content-type", not one per request).
 */
const LOWER = new Map<string, string>()
function lowerCase(name: string): string {
  let lower = LOWER.get(name)
  if (lower === undefined) {
    lower = name.toLowerCase()
    if (LOWER.size < 512) LOWER.set(name, lower)
  }
  return lower
}

function normalizedValue(name: string, value: string): string {
  const v = String(value)
  const trimmed = v.length > 0 && (isEdgeSpace(v.charCodeAt(0)) || isEdgeSpace(v.charCodeAt(v.length - 1))) ? v.replace(EDGE_WHITESPACE, '') : v
  if (FORBIDDEN_VALUE.test(trimmed)) throw new TypeError(`Headers: the value of "${name}" is invalid.`)
  return trimmed
}

function isEdgeSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
}

export class HeaderFields implements Headers {
  /** Lower-case names and their values, in the order they were added. */
  readonly #names: string[] = []
  readonly #values: string[] = []
  /** The sorted, combined view iteration walks; dropped on every change. */
  #sorted: Array<[string, string]> | undefined

  /**
   * From node:http's `rawHeaders` (name, value, name, value, …), which its parser has already
   * checked: names are only lower-cased.
   */
  static fromRaw(raw: readonly string[]): HeaderFields {
    const fields = new HeaderFields()
    const names = fields.#names
    const values = fields.#values
    for (let i = 0; i + 1 < raw.length; i += 2) {
      names.push(lowerCase(raw[i] as string))
      values.push(raw[i + 1] as string)
    }
    return fields
  }

  /**
   * The fields as node:http's `writeHead()` takes them (name, value, name, value, …), in the order
   * they were added; undefined when a name other than Set-Cookie repeats (Fetch would join those).
   */
  flat(): string[] | undefined {
    const names = this.#names
    const out: string[] = []
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string
      if (name !== 'set-cookie' && names.indexOf(name) !== i) return undefined
      out.push(name, this.#values[i] as string)
    }
    return out
  }

  append(name: string, value: string): void {
    const lower = checkedName(name)
    const normalized = normalizedValue(name, value)
    this.#names.push(lower)
    this.#values.push(normalized)
    this.#sorted = undefined
  }

  set(name: string, value: string): void {
    const lower = checkedName(name)
    const normalized = normalizedValue(name, value)
    const names = this.#names
    const first = names.indexOf(lower)
    if (first === -1) {
      names.push(lower)
      this.#values.push(normalized)
    } else {
      this.#values[first] = normalized
      for (let i = names.length - 1; i > first; i--) {
        if (names[i] === lower) {
          names.splice(i, 1)
          this.#values.splice(i, 1)
        }
      }
    }
    this.#sorted = undefined
  }

  delete(name: string): void {
    const lower = checkedName(name)
    const names = this.#names
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === lower) {
        names.splice(i, 1)
        this.#values.splice(i, 1)
        this.#sorted = undefined
      }
    }
  }

  get(name: string): string | null {
    const lower = checkedName(name)
    const names = this.#names
    let found: string | null = null
    for (let i = 0; i < names.length; i++) {
      if (names[i] === lower) found = found === null ? (this.#values[i] as string) : `${found}, ${this.#values[i] as string}`
    }
    return found
  }

  has(name: string): boolean {
    return this.#names.includes(checkedName(name))
  }

  getSetCookie(): string[] {
    const out: string[] = []
    const names = this.#names
    for (let i = 0; i < names.length; i++) if (names[i] === 'set-cookie') out.push(this.#values[i] as string)
    return out
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#view()) callback.call(thisArg, value, name, this)
  }

  *entries(): HeadersIterator<[string, string]> {
    for (const pair of this.#view()) yield [pair[0], pair[1]]
  }

  *keys(): HeadersIterator<string> {
    for (const pair of this.#view()) yield pair[0]
  }

  *values(): HeadersIterator<string> {
    for (const pair of this.#view()) yield pair[1]
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }

  /** Fetch's "sort and combine": by name, repeats joined with ", ", each Set-Cookie on its own. */
  #view(): ReadonlyArray<readonly [string, string]> {
    if (this.#sorted !== undefined) return this.#sorted
    const names = this.#names
    const order = names.map((_, i) => i).sort((a, b) => {
      const x = names[a] as string
      const y = names[b] as string
      return x < y ? -1 : x > y ? 1 : a - b
    })
    const out: Array<[string, string]> = []
    for (const i of order) {
      const name = names[i] as string
      const value = this.#values[i] as string
      const last = out[out.length - 1]
      if (last !== undefined && last[0] === name && name !== 'set-cookie') last[1] = `${last[1]}, ${value}`
      else out.push([name, value])
    }
    this.#sorted = out
    return out
  }
}

type HeadersIterator<T> = Generator<T, undefined, unknown>
