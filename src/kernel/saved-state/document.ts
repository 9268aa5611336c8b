/**
 * The saved-state document's shape: the kernel's members (format, version, time, note, seed,
 * fixtures digest, addresses, the kernel's part) and one member per domain part, each a zod
 * schema of its own (a domain's part left out of a document means "nothing changed against the
 * fixtures"). A document is read in three steps: its text as JSON, its format (a newer one is
 * refused naming the version that wrote it), then the whole schema; the first problem names the
 * member's path.
 */
import * as z from 'zod'
import { NESTING_RULE, nestsDeeperThan } from '../nesting.js'
import { MAX_NESTING } from '../constants.js'
import { SAVED_STATE_FORMAT, SavedStateError, SavedStateVersionError } from '../saved.js'
import { firstProblem, parseNaming } from '../validation.js'

/** What every document says of the secrets it holds. */
export const SECRETS_NOTE =
  "The secrets in this document (secrets, keys, codes, tokens and private signing keys) are svc-mock's own test values, made up by the emulator or given in its fixtures: they open nothing but an emulator that loads this document. Keep it as you keep a test fixture, not as a credential."

/**
 * How deep a document may nest: the limit of any input, plus the levels of the document around
 * a webhook call's bundle (itself held to the limit when it arrived).
 */
export const DOCUMENT_NESTING = MAX_NESTING + 16

const isoTime = z.string().refine((text) => Number.isFinite(Date.parse(text)), { message: 'must be a date and time (ISO 8601)' })

/** A scenario on for the run, as the kernel's part holds it. */
const SavedActivation = z.strictObject({
  name: z.string().min(1),
  part: z.number().int().min(0),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  target: z.record(z.string(), z.string()),
  remaining: z.number().int().min(1).nullable(),
  drawn: z.number().int().min(0),
  seen: z.array(z.number().int().min(0)),
})

export const KernelPart = z.strictObject({
  ids: z.number().int().min(0).meta({ description: "Draws made from the run's id stream since its seed." }),
  clock: z.strictObject({
    mode: z.enum(['real', 'manual']),
    now: isoTime.meta({ description: 'Emulator time when saved.' }),
    timeScale: z.number().positive(),
  }),
  scenarios: z.array(SavedActivation).meta({ description: 'The scenarios on for the run, in rank order, with what each has used.' }),
})

/** The document's schema around the domains' parts (each by its domain's name). */
export function documentSchema(parts: ReadonlyArray<{ name: string; schema: z.ZodType }>): z.ZodType {
  return z.strictObject({
    $schema: z.string().optional(),
    svcMockState: z.literal(SAVED_STATE_FORMAT),
    version: z.string().min(1).meta({ description: 'The svc-mock version that wrote it.' }),
    exportedAt: isoTime.meta({ description: 'Wall-clock time of the export.' }),
    note: z.string(),
    seed: z.number().int().min(0),
    fixtures: z.string().meta({ description: 'A digest of the fixture records it was made over.' }),
    urls: z.record(z.string(), z.string()).meta({ description: 'The addresses of the emulator that saved it.' }),
    kernel: KernelPart,
    ...Object.fromEntries(parts.map(({ name, schema }) => [name, schema.optional()])),
  })
}

/** The document from JSON text (or as given), its format checked: a newer one is refused. */
export function readDocument(input: unknown, version: string): Record<string, unknown> {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (error) {
      throw new SavedStateError('', `is not JSON (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SavedStateError('', 'must be a JSON object, as GET /__svc-mock/state/export answers')
  if (nestsDeeperThan(value, DOCUMENT_NESTING)) throw new SavedStateError('', NESTING_RULE.replace(String(MAX_NESTING), String(DOCUMENT_NESTING)))
  const document = value as Record<string, unknown>
  const format = document.svcMockState
  if (typeof format === 'number' && Number.isInteger(format) && format > SAVED_STATE_FORMAT) {
    throw new SavedStateVersionError(format, typeof document.version === 'string' ? document.version : undefined, SAVED_STATE_FORMAT, version)
  }
  if (format === undefined) throw new SavedStateError('svcMockState', `is missing: a saved state starts {"svcMockState": ${SAVED_STATE_FORMAT}, …} (GET /__svc-mock/state/export writes one)`)
  return document
}

/** Checks the whole document; the first problem is refused naming its member. */
export function checked<T>(schema: z.ZodType<T>, document: unknown): T {
  const parsed = parseNaming(schema, document)
  if (parsed.success) return parsed.data
  const problem = firstProblem(parsed.error)
  throw new SavedStateError(problem.path, problem.rule)
}
