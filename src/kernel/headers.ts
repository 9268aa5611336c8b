/**
 * `HeaderFields`: the Fetch `Headers` interface over one plain array, for the headers the
 * emulator makes itself (a socket request's, every reply's). It behaves as Fetch `Headers` does
 * where a route or a transport can tell (names compared without case, `get()` joining repeats with
 * ", ", iteration sorted by lower-case name with each Set-Cookie apart, invalid names and values
 * refused with a TypeError, values trimmed), at a fraction of the cost: undici's `Headers` checks
 * its brand and converts its arguments on every call and keeps a Map of entry objects, and the
 * journal keeps a request's and a reply's headers for every exchange it holds. A Fetch `Response`
 * takes it as it takes any iterable of pairs.
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Whether a header name is an HTTP token (what Fetch accepts as a name). */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name)
}

/** What a header value may not hold (Fetch: no NUL, CR or LF). */
const FORBIDDEN_VALUE = /[\0\r\n]/
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

function checkedName(name: string): string {
  if (!isHeaderName(name)) throw new TypeError(`Headers: "${name}" is an invalid header name.`)
  return name.toLowerCase()
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
  /**
   * Lower-case name, value, name, value, … in the order they were added: one array (a request's
   * is a copy of node:http's rawHeaders, sized exactly), which the journal keeps.
   */
  #fields: string[]
  /** The sorted, combined view iteration walks; dropped on every change. */
  #sorted: Array<[string, string]> | undefined

  constructor() {
    this.#fields = []
  }

  /**
   * From node:http's `rawHeaders` (name, value, name, value, …), which its parser has already
   * checked: names are only lower-cased.
   */
  static fromRaw(raw: readonly string[]): HeaderFields {
    const out = new HeaderFields()
    const fields = raw.length % 2 === 0 ? raw.slice() : raw.slice(0, raw.length - 1)
    for (let i = 0; i < fields.length; i += 2) fields[i] = (fields[i] as string).toLowerCase()
    out.#fields = fields
    return out
  }

  /** The fields in the order they were added (names lower-case, a repeated name apart): what `fromRaw()` takes back. */
  fields(): readonly string[] {
    return this.#fields
  }

  /**
   * The fields as node:http's `writeHead()` takes them (name, value, name, value, …), in the order
   * they were added; undefined when a name other than Set-Cookie repeats (Fetch would join those).
   */
  flat(): string[] | undefined {
    const fields = this.#fields
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i] as string
      if (name === 'set-cookie') continue
      for (let j = i + 2; j < fields.length; j += 2) if (fields[j] === name) return undefined
    }
    return fields.slice()
  }

  /**
   * The fields as a record of name → value (no prototype, so any token is a plain key), for a
   * Fetch `Response`: it converts a record far more cheaply than an iterable of pairs. Undefined
   * when any name repeats (Set-Cookie included), which a record cannot hold, and for a
   * `__proto__` header, which undici's record conversion drops (it copies into a plain object).
   */
  record(): Record<string, string> | undefined {
    const fields = this.#fields
    const out: Record<string, string> = Object.create(null) as Record<string, string>
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i] as string
      if (name === '__proto__' || Object.hasOwn(out, name)) return undefined
      out[name] = fields[i + 1] as string
    }
    return out
  }

  append(name: string, value: string): void {
    const lower = checkedName(name)
    const normalized = normalizedValue(name, value)
    this.#fields.push(lower, normalized)
    this.#sorted = undefined
  }

  set(name: string, value: string): void {
    const lower = checkedName(name)
    const normalized = normalizedValue(name, value)
    const fields = this.#fields
    const first = this.#indexOf(lower)
    if (first === -1) {
      fields.push(lower, normalized)
    } else {
      fields[first + 1] = normalized
      for (let i = fields.length - 2; i > first; i -= 2) if (fields[i] === lower) fields.splice(i, 2)
    }
    this.#sorted = undefined
  }

  delete(name: string): void {
    const lower = checkedName(name)
    const fields = this.#fields
    for (let i = fields.length - 2; i >= 0; i -= 2) {
      if (fields[i] === lower) {
        fields.splice(i, 2)
        this.#sorted = undefined
      }
    }
  }

  get(name: string): string | null {
    const lower = checkedName(name)
    const fields = this.#fields
    let found: string | null = null
    for (let i = 0; i < fields.length; i += 2) {
      if (fields[i] === lower) found = found === null ? (fields[i + 1] as string) : `${found}, ${fields[i + 1] as string}`
    }
    return found
  }

  has(name: string): boolean {
    return this.#indexOf(checkedName(name)) !== -1
  }

  getSetCookie(): string[] {
    const out: string[] = []
    const fields = this.#fields
    for (let i = 0; i < fields.length; i += 2) if (fields[i] === 'set-cookie') out.push(fields[i + 1] as string)
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

  #indexOf(lower: string): number {
    const fields = this.#fields
    for (let i = 0; i < fields.length; i += 2) if (fields[i] === lower) return i
    return -1
  }

  /** Fetch's "sort and combine": by name, repeats joined with ", ", each Set-Cookie on its own. */
  #view(): ReadonlyArray<readonly [string, string]> {
    if (this.#sorted !== undefined) return this.#sorted
    const fields = this.#fields
    const order = Array.from({ length: fields.length / 2 }, (_, i) => 2 * i).sort((a, b) => {
      const x = fields[a] as string
      const y = fields[b] as string
      return x < y ? -1 : x > y ? 1 : a - b
    })
    const out: Array<[string, string]> = []
    for (const i of order) {
      const name = fields[i] as string
      const value = fields[i + 1] as string
      const last = out[out.length - 1]
      if (last !== undefined && last[0] === name && name !== 'set-cookie') last[1] = `${last[1]}, ${value}`
      else out.push([name, value])
    }
    this.#sorted = out
    return out
  }
}

type HeadersIterator<T> = Generator<T, undefined, unknown>
