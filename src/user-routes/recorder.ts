/**
 * `--record DIR`: each proxied call becomes a route file in DIR, one per method and path
 * template (record-names.ts), written once the answer's body has ended (record-file.ts). The
 * recorder sees the body as it streams past on its way to the client and keeps at most what it
 * will write: a body over the limit is recorded as its head and a note. An answer that stops
 * before its end, or that the client stops reading, is not recorded.
 *
 * The newest answer replaces an older recording, except a 401 or 403 (the team refusing the
 * caller's credential, or its lack) and a 5xx: svc-mock's own gate and scenarios answer those on
 * replay, and a good recording must not be lost to one call without a credential. Each recording
 * is logged, and `recorded()` waits until every recording begun so far is on disk.
 */
import { mkdirSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../kernel/clock.js'
import { ConfigError } from '../kernel/errors.js'
import type { Logger } from '../kernel/logger.js'
import type { Redactor } from '../kernel/redact.js'
import { RECORD_LIMIT, RECORDINGS_KEPT } from './constants.js'
import { type AnswerBody, type ProxiedCallHead, routeFileOf } from './record-file.js'
import { recordingName, templateOfPath } from './record-names.js'
import { METHODS } from './schema.js'

export type { ProxiedCallHead } from './record-file.js'

/** What `--record` did with one proxied call (`emu.userRoutes.recorded()`). */
export interface Recording {
  readonly method: string
  /** The route's path template (`/integration/api/pools/{poolId}`). */
  readonly path: string
  /** The status recorded (an upstream status HTTP does not have is recorded as 502). */
  readonly status: number
  /** The route file in the record folder; undefined when none was written. */
  readonly file: string | undefined
  /**
   * `written` (a new file), `replaced` (a newer answer), `kept` (a 401, 403 or 5xx left the
   * older recording as it was), `not-recorded` (the answer stopped before its end, or a method a
   * route cannot take), `failed` (the file could not be written).
   */
  readonly outcome: 'written' | 'replaced' | 'kept' | 'not-recorded' | 'failed'
  /** Why, when it is not `written` or `replaced`. */
  readonly reason?: string
}

/** One recording under way: the body as it streams, then its end (or that it stopped). */
export interface RecordingSink {
  write(chunk: Uint8Array): void
  end(): void
  abort(reason: string): void
}

/** A 401 or 403, or a 5xx, never replaces a recording. */
const keepsOlder = (status: number): boolean => status === 401 || status === 403 || status >= 500

export class Recorder {
  readonly #dir: string
  readonly #redact: Redactor
  readonly #clock: Clock
  readonly #logger: Logger
  readonly #pending = new Set<Promise<void>>()
  /** Per route file, the last write queued: a file's writes run one after another. */
  readonly #queues = new Map<string, Promise<void>>()
  #done: Recording[] = []

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

  /** Starts recording a proxied call whose answer's head has arrived; its body follows through the sink. */
  begin(head: ProxiedCallHead): RecordingSink {
    const announced = Number(head.headers.find(([name]) => name === 'content-length')?.[1] ?? Number.NaN)
    let chunks: Uint8Array[] | undefined = announced > RECORD_LIMIT ? undefined : []
    let size = 0
    let open = true
    const end = (): void => {
      if (!open) return
      open = false
      this.#commit(head, chunks === undefined ? { kind: 'too-large', size } : { kind: 'bytes', bytes: Buffer.concat(chunks) })
      chunks = undefined
    }
    return {
      write: (chunk) => {
        if (!open) return
        size += chunk.byteLength
        if (chunks !== undefined && size <= RECORD_LIMIT) chunks.push(chunk)
        else chunks = undefined
        // A client that counts the bytes of a Content-Length has the whole answer with this chunk: the recording begins first.
        if (size === announced) end()
      },
      end,
      abort: (reason) => {
        if (!open) return
        open = false
        chunks = undefined
        const { template } = templateOfPath(head.url.pathname)
        this.#report(head, { method: head.method, path: template, status: head.status, file: undefined, outcome: 'not-recorded', reason })
      },
    }
  }

  /** Waits until every recording begun so far is written (or given up); answers them all, oldest first. */
  async recorded(): Promise<Recording[]> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending])
    return [...this.#done]
  }

  /** Forgets the outcomes (the files stay). */
  reset(): void {
    this.#done = []
  }

  #commit(head: ProxiedCallHead, body: AnswerBody): void {
    const { template } = templateOfPath(head.url.pathname)
    if (!(METHODS as readonly string[]).includes(head.method)) {
      this.#report(head, { method: head.method, path: template, status: head.status, file: undefined, outcome: 'not-recorded', reason: `a route takes ${METHODS.join(', ')}` })
      return
    }
    const name = recordingName(head.method, template)
    const at = this.#clock.date()
    const previous = this.#queues.get(name.json) ?? Promise.resolve()
    const write = previous.then(() => this.#write(head, body, template, name, at))
    this.#queues.set(name.json, write)
    this.#pending.add(write)
    void write.finally(() => {
      this.#pending.delete(write)
      if (this.#queues.get(name.json) === write) this.#queues.delete(name.json)
    })
  }

  async #write(head: ProxiedCallHead, body: AnswerBody, template: string, name: ReturnType<typeof recordingName>, at: Date): Promise<void> {
    const recording = { method: head.method, path: template, status: head.status, file: name.json }
    try {
      const older = await this.#statusOf(name.json)
      if (older !== undefined && keepsOlder(head.status)) {
        this.#report(head, { ...recording, outcome: 'kept', reason: `the ${older} recorded there stays: a ${head.status} never replaces a recording (svc-mock's gate and scenarios answer those on replay)` })
        return
      }
      const file = routeFileOf(head, body, name, template, this.#redact.foreign(head.requestHeaders), at, RECORD_LIMIT)
      if (file.body !== undefined) await this.#put(name.body, file.body)
      await this.#put(name.json, file.json)
      if (file.body === undefined) await rm(join(this.#dir, name.body), { force: true })
      this.#report(head, older === undefined ? { ...recording, outcome: 'written' } : { ...recording, outcome: 'replaced', reason: `it replaced the ${older} recorded there` })
    } catch (error) {
      this.#report(head, { ...recording, outcome: 'failed', reason: error instanceof Error ? error.message : String(error) })
    }
  }

  /** The status of the recording in a route file, when there is one (200 when the file does not say). */
  async #statusOf(file: string): Promise<number | undefined> {
    let text: string
    try {
      text = await readFile(join(this.#dir, file), 'utf8')
    } catch {
      return undefined
    }
    try {
      const status = (JSON.parse(text) as { routes?: Array<{ response?: { status?: unknown } }> }).routes?.[0]?.response?.status
      return typeof status === 'number' ? status : 200
    } catch {
      return 200
    }
  }

  /** Writes through a temporary file, so a reader never sees half of one. */
  async #put(file: string, content: string | Uint8Array): Promise<void> {
    const path = join(this.#dir, file)
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(temporary, content)
    await rename(temporary, path)
  }

  #report(head: ProxiedCallHead, recording: Recording): void {
    this.#done.push(recording)
    if (this.#done.length > RECORDINGS_KEPT) this.#done.splice(0, this.#done.length - RECORDINGS_KEPT)
    const line = `--record: ${head.method} ${this.#redact.foreign(head.requestHeaders).path(head.url)} -> ${recording.status}`
    if (recording.outcome === 'written') this.#logger.info(`${line}, recorded in ${recording.file ?? ''}`)
    else if (recording.outcome === 'replaced') this.#logger.info(`${line}, replaced the older recording in ${recording.file ?? ''} (${recording.reason ?? ''})`)
    else if (recording.outcome === 'kept') this.#logger.warn(`${line}, not recorded: kept ${recording.file ?? ''} as it was (${recording.reason ?? ''})`)
    else if (recording.outcome === 'not-recorded') this.#logger.warn(`${line}, forwarded but not recorded: ${recording.reason ?? ''}`)
    else this.#logger.error(`${line}: could not write ${recording.file ?? ''}: ${recording.reason ?? ''}`)
  }
}
