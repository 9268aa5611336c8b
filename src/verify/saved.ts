/**
 * `--save DIR` and `--against DIR`: the team's normalized answers kept as files (one per probe, and
 * `verify-run.json` naming them and the kind of credential the run used), so that svc-mock can be
 * compared with them later without the network. What a file holds is what verify compares and
 * nothing more: no credential, no address, no value of a success body (its shape only).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { firstProblem } from '../kernel/validation.js'
import { VERSION } from '../version.js'
import type { NormalizedAnswer } from './answer.js'
import type { ApiCredential } from './catalogue.js'
import { VerifyUsageError } from './flags.js'
import { KINDS, type Shape } from './shape.js'

const RUN_FILE = 'verify-run.json'

const ShapeSchema: z.ZodType<Shape> = z.lazy(() =>
  z.strictObject({
    kinds: z.array(z.enum(KINDS)),
    members: z.record(z.string(), ShapeSchema).optional(),
    items: ShapeSchema.optional(),
  }),
)

const Body = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('shape'), shape: ShapeSchema }),
  z.strictObject({ kind: z.literal('json'), value: JsonValue }),
  z.strictObject({ kind: z.literal('text'), text: z.string() }),
  z.strictObject({ kind: z.literal('html'), title: z.string() }),
  z.strictObject({ kind: z.literal('binary'), bytes: z.number() }),
  z.strictObject({ kind: z.literal('empty') }),
])

const Answer = z.strictObject({ status: z.number().int(), contentType: z.string(), headers: z.record(z.string(), z.string()), body: Body })
const AnswerFile = z.strictObject({ probe: z.string(), request: z.string(), answer: Answer })

const RunFile = z.strictObject({
  svcMockVerify: z.literal(1),
  version: z.string(),
  apiCredential: z.enum(['user-key', 'app-key', 'token', 'none']),
  split: z.strictObject({ auth: z.boolean(), webhook: z.boolean() }),
  answers: z.record(z.string(), z.string()),
})

/** What a save holds: the run's facts and the answers by probe id. */
export interface SavedRun {
  readonly apiCredential: ApiCredential
  readonly split: { readonly auth: boolean; readonly webhook: boolean }
  readonly answers: ReadonlyMap<string, NormalizedAnswer>
}

/** A file name for a probe id: safe characters only, with a short hash when the id had others. */
function fileOf(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)
  return safe === id ? `${id}.json` : `${safe}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}.json`
}

/** The request a probe sends, as a save names it (placeholders, never a side's values). */
export const requestLine = (probe: VerifyProbe): string => `${probe.method} {${probe.address}_url}${probe.path}`

function writeAtomically(file: string, data: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(data, null, 2)}\n`)
  renameSync(`${file}.tmp`, file)
}

/** Writes the team's normalized answers into `dir`. */
export function saveRun(dir: string, run: SavedRun, probes: readonly VerifyProbe[]): void {
  mkdirSync(dir, { recursive: true })
  const answers: Record<string, string> = {}
  for (const probe of probes) {
    const answer = run.answers.get(probe.id)
    if (answer === undefined) continue
    const file = fileOf(probe.id)
    answers[probe.id] = file
    writeAtomically(join(dir, file), { probe: probe.id, request: requestLine(probe), answer })
  }
  writeAtomically(join(dir, RUN_FILE), { svcMockVerify: 1, version: VERSION, apiCredential: run.apiCredential, split: run.split, answers })
}

/** Reads what `--save` kept; a missing or malformed file is a VerifyUsageError naming it and the member. */
export function readRun(dir: string): SavedRun {
  const runFile = join(dir, RUN_FILE)
  if (!existsSync(runFile)) throw new VerifyUsageError(`--against ${dir}: no ${RUN_FILE} there (svc-mock verify --save DIR writes it)`)
  const run = parseFile(runFile, RunFile)
  const answers = new Map<string, NormalizedAnswer>()
  for (const [id, file] of Object.entries(run.answers)) {
    if (file !== fileOf(id)) throw new VerifyUsageError(`${runFile}: answers.${id} must be "${fileOf(id)}"`)
    answers.set(id, parseFile(join(dir, file), AnswerFile).answer)
  }
  return { apiCredential: run.apiCredential, split: run.split, answers }
}

function parseFile<T>(file: string, schema: z.ZodType<T>): T {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new VerifyUsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = schema.safeParse(data)
  // The schemas only check (no defaults, no transforms); the data itself keeps a member named __proto__, which zod's copy drops.
  if (parsed.success) return data as T
  const problem = firstProblem(parsed.error)
  throw new VerifyUsageError(`${file}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.rule}`)
}
