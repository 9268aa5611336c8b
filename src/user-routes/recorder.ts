/**
 * `--record DIR`: each proxied exchange becomes a route file in DIR, one per method and path
 * template (a segment that looks like an id becomes a parameter: a UUID, a number, or eight or
 * more letters and digits with a digit among them), the newest answer overwriting the older. The
 * file holds the answer only: status, headers (without Set-Cookie, Date and the framing ones) and
 * body (JSON in the file with the journal's secret fields redacted when it is small and plain;
 * otherwise the bytes in a body file beside it). The request line, its secrets redacted, is in the
 * file's `$comment`. A route recorded from a call with a credential keeps the gate; one without
 * is public. `svc-mock --routes DIR` serves them offline.
 */
import { mkdirSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../kernel/clock.js'
import { ConfigError } from '../kernel/errors.js'
import type { JsonValue } from '../kernel/json.js'
import type { Logger } from '../kernel/logger.js'
import { REDACTED, type Redactor } from '../kernel/redact.js'
import { RECORD_INLINE_LIMIT, RECORD_LIMIT } from './constants.js'
import { METHODS, type RoutesDocumentInput, type UserRouteInput } from './schema.js'

/** One proxied exchange, as the recorder needs it. */
export interface Exchange {
  readonly method: string
  readonly url: URL
  readonly requestHeaders: Headers
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
}

/** Answer headers not written: the framing ones, and those that say something of this one answer only. */
const LEFT_OUT = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie', 'date'])

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a path segment names one thing (an id) rather than a kind of thing. */
export function looksLikeId(segment: string): boolean {
  return UUID.test(segment) || /^\d+$/.test(segment) || (/^[A-Za-z0-9_-]{8,}$/.test(segment) && /\d/.test(segment))
}

/** The template of a recorded path (`/pools/3fa8…/tables` → `/pools/{poolId}/tables`) and its parameters. */
export function templateOfPath(pathname: string): { template: string; params: string[] } {
  const params: string[] = []
  const segments = pathname
    .slice(1)
    .split('/')
    .map((segment, i, all) => {
      if (!looksLikeId(segment)) return segment
      const before = i > 0 ? all[i - 1] : undefined
      const base = before !== undefined && !looksLikeId(before) && /^[A-Za-z][A-Za-z0-9_-]*$/.test(before) ? `${singular(before).replace(/[-_]+([a-z0-9])/gi, (_, c: string) => c.toUpperCase())}Id` : 'id'
      let name = base
      for (let n = 2; params.includes(name); n++) name = `${base}${n}`
      params.push(name)
      return `{${name}}`
    })
  return { template: `/${segments.join('/')}`, params }
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

export class Recorder {
  readonly #dir: string
  readonly #redact: Redactor
  readonly #clock: Clock
  readonly #logger: Logger

  constructor(dir: string, services: { redact: Redactor; clock: Clock; logger: Logger }) {
    this.#dir = dir
    this.#redact = services.redact
    this.#clock = services.clock
    this.#logger = services.logger
    try {
      mkdirSync(dir, { recursive: true })
    } catch (error) {
      throw new ConfigError('record', `cannot make the folder ${dir}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /**
   * A pass-through of the answer's body that writes the route file once the body is complete. The
   * last chunk is held back until the file is written, so a caller that has the whole answer (by
   * its Content-Length) finds the file there.
   */
  tap(exchange: Exchange): TransformStream<Uint8Array, Uint8Array> {
    const chunks: Uint8Array[] = []
    let size = 0
    let held: Uint8Array | undefined
    return new TransformStream({
      transform: (chunk, controller) => {
        size += chunk.byteLength
        if (size <= RECORD_LIMIT) chunks.push(chunk)
        if (held !== undefined) controller.enqueue(held)
        held = chunk
      },
      flush: async (controller) => {
        if (size > RECORD_LIMIT) {
          this.#logger.warn(`--record: the answer to ${exchange.method} ${exchange.url.pathname} is larger than ${RECORD_LIMIT} bytes; it was forwarded, not recorded.`)
        } else {
          // A recording that fails (a full disk) is logged; the caller still gets the whole answer.
          await this.record({ ...exchange, body: Buffer.concat(chunks) }).catch((error: unknown) => this.#logger.error(`--record: could not write ${exchange.method} ${exchange.url.pathname}`, error))
        }
        if (held !== undefined) controller.enqueue(held)
      },
    })
  }

  /** Writes the route file of a complete exchange (and its body file), replacing an older one. */
  async record(exchange: Exchange & { readonly body: Uint8Array }): Promise<void> {
    const secrets = secretsOf(exchange.requestHeaders)
    const scrub = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text)
    if (!(METHODS as readonly string[]).includes(exchange.method)) {
      this.#logger.warn(`--record: ${exchange.method} ${exchange.url.pathname} was forwarded, not recorded (a route takes ${METHODS.join(', ')}).`)
      return
    }
    const { template } = templateOfPath(exchange.url.pathname)
    const name = fileName(exchange.method, template)
    const headers = Object.fromEntries(exchange.headers.filter(([header]) => !LEFT_OUT.has(header)).map(([header, value]) => [header, scrub(value)]))
    const response: NonNullable<UserRouteInput['response']> = { status: exchange.status, ...(Object.keys(headers).length === 0 ? {} : { headers }) }
    const inline = this.#inlineBody(exchange, headers)
    if (inline !== undefined) {
      response.body = JSON.parse(scrub(JSON.stringify(inline))) as JsonValue
    } else if (exchange.body.byteLength > 0 && exchange.method !== 'HEAD') {
      response.bodyFile = `${name}.body`
      await this.#write(`${name}.body`, scrubBytes(exchange.body, secrets))
    }
    const route: UserRouteInput = {
      id: routeId(exchange.method, template),
      method: exchange.method as UserRouteInput['method'],
      path: template,
      summary: `Recorded: ${exchange.method} ${template}`,
      ...(exchange.requestHeaders.has('authorization') ? {} : { auth: 'none' as const }),
      response,
    }
    const document: RoutesDocumentInput = {
      $comment: `Recorded by svc-mock ${this.#clock.date().toISOString()} from ${exchange.method} ${this.#redact.path(exchange.url)}; a newer answer to ${exchange.method} ${template} replaces it.`,
      routes: [route],
    }
    await this.#write(`${name}.json`, `${JSON.stringify(document, null, 2)}\n`)
  }

  /** The body as JSON to keep in the file: a small JSON answer, not compressed, its secret fields redacted. */
  #inlineBody(exchange: Exchange & { readonly body: Uint8Array }, headers: Record<string, string>): JsonValue | undefined {
    const type = headers['content-type'] ?? ''
    const encoding = headers['content-encoding'] ?? 'identity'
    if (!/\bjson\b/i.test(type) || encoding !== 'identity' || exchange.body.byteLength === 0 || exchange.body.byteLength > RECORD_INLINE_LIMIT) return undefined
    try {
      // A JSON string would be sent back as text: such a body stays in a file.
      const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(exchange.body)) as JsonValue
      return typeof value === 'string' ? undefined : (this.#redact.value(value) as JsonValue)
    } catch {
      return undefined
    }
  }

  /** Writes through a temporary file, so a reader never sees half of one and the newest write wins whole. */
  async #write(file: string, content: string | Uint8Array): Promise<void> {
    const path = join(this.#dir, file)
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(temporary, content)
    await rename(temporary, path)
  }
}

/**
 * The caller's secrets, to take out wherever an answer repeats them (a team that echoes the
 * request): the credential of `Authorization` (without its scheme) and each cookie's value.
 */
function secretsOf(headers: Headers): string[] {
  const out: string[] = []
  const credential = /^\s*\S+\s+(.+?)\s*$/.exec(headers.get('authorization') ?? '')?.[1]
  if (credential !== undefined && credential.length >= 4) out.push(credential)
  for (const cookie of (headers.get('cookie') ?? '').split(';')) {
    const value = cookie.split('=').slice(1).join('=').trim()
    if (value.length >= 4) out.push(value)
  }
  return out
}

/** A body with the caller's secrets taken out, when it is UTF-8 text that holds one; other bytes as they are. */
function scrubBytes(body: Uint8Array, secrets: readonly string[]): Uint8Array {
  if (secrets.length === 0) return body
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return body
  }
  if (!secrets.some((secret) => text.includes(secret))) return body
  return new TextEncoder().encode(secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text))
}

/**
 * `GET /integration/api/pools/{poolId}` → `GET integration.api.pools.{poolId}`: a parameter's `{`
 * sorts after every letter and digit, so in a folder read in name order a route with a fixed
 * segment comes before the one with a parameter in its place (the other way round it would be
 * refused as shadowed).
 */
function fileName(method: string, template: string): string {
  const path = template === '/' ? 'root' : template.slice(1).replace(/\//g, '.').replace(/[^A-Za-z0-9._{}-]/g, '_')
  return `${method} ${path}`.slice(0, 200)
}

/** `get.integration.api.pools.by-poolId`. */
function routeId(method: string, template: string): string {
  const path = template === '/' ? 'root' : template.slice(1).replace(/\{([^}]+)\}/g, 'by-$1').replace(/\//g, '.').replace(/[^A-Za-z0-9._-]/g, '_')
  return `${method.toLowerCase()}.${path}`.replace(/\.+$/, '').slice(0, 100)
}
