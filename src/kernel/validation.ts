/**
 * zod helpers shared by fixtures, scenario files and control-plane bodies: one way to name the
 * field that failed (`rules[0].delay`) and the rule it broke. An unknown member is named before
 * anything else (a typo `idd` also leaves `id` missing, and the typo is what to fix), with the
 * closest known member of its object (`unknown member "idd" (did you mean "id"?)`).
 */
import * as z from 'zod'
import { closest } from './closest.js'
import { InvalidInputError } from './errors.js'
import { NESTING_RULE, nestsDeeperThan } from './nesting.js'

export interface ValidationProblem {
  /** Where in the document, as `a.b[2].c`; empty for the document itself. */
  path: string
  /** What rule was broken, in words. */
  rule: string
}

const UNKNOWN_MEMBER = 'unknown member'

/**
 * Parses with the error map that names an unknown member with the closest known one of its object
 * (zod's issue knows only the unknown keys; the map sees the object schema that raised it).
 */
export function parseNaming<S extends z.ZodType>(schema: S, value: unknown, options: { reportInput?: boolean } = {}): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(value, { ...options, error: namingMembers })
}

function namingMembers(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'unrecognized_keys' || !(issue.inst instanceof z.ZodObject)) return undefined
  return unknownMembers(issue.keys, Object.keys(issue.inst.shape))
}

/** `unknown member "idd" (did you mean "id"?)`, or the known members when none is near. */
function unknownMembers(keys: readonly string[], known: readonly string[] | undefined): string {
  const named = keys.map((key) => {
    if (known === undefined) return `"${key}"`
    const near = closest(key, known)
    return `"${key}" (${near === undefined ? `known members: ${known.join(', ')}` : `did you mean "${near}"?`})`
  })
  return `${UNKNOWN_MEMBER}${keys.length > 1 ? 's' : ''} ${named.join(', ')}`
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/** The first problem of a failed parse: an unknown member, else the first zod reports. */
export function firstProblem(error: z.ZodError): ValidationProblem {
  const [first] = allProblems(error)
  return first ?? { path: '', rule: 'is not valid' }
}

/** Every problem of a failed parse, unknown members first. */
function allProblems(error: z.ZodError): ValidationProblem[] {
  const issues = [...error.issues.filter((i) => i.code === 'unrecognized_keys'), ...error.issues.filter((i) => i.code !== 'unrecognized_keys')]
  return issues.map((issue) => ({ path: formatPath(issue.path), rule: describeIssue(issue) }))
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // The message parseNaming() made names the closest known member; zod's own does not.
  if (issue.code === 'unrecognized_keys') return issue.message.startsWith(UNKNOWN_MEMBER) ? issue.message : unknownMembers(issue.keys, undefined)
  if (issue.code === 'invalid_union' && issue.errors.length > 0) return describeUnion(issue.errors, 'input' in issue ? kindOf(issue.input) : undefined)
  return issue.message
}

/**
 * A value that fits none of a union's types: zod says only "Invalid input", so this says what each
 * alternative expects and what was received (`expected a number or {"$param": …}, received string`).
 */
function describeUnion(branches: readonly (readonly z.core.$ZodIssue[])[], input: string | undefined): string {
  const wanted = [...new Set(branches.map((issues) => (issues[0] ? expectation(issues[0]) : 'something else')))]
  const received = input ?? branches.flat().map((issue) => /received (\w+)/.exec(issue.message)?.[1]).find((type) => type !== undefined)
  const alternatives = wanted.length > 1 ? `${wanted.slice(0, -1).join(', ')} or ${wanted.at(-1) ?? ''}` : (wanted[0] ?? '')
  return `expected ${alternatives}${received === undefined ? '' : `, received ${received}`}`
}

/** The JSON type of a value, as zod names it (`received string`); parse with `reportInput` to have it. */
function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

const TYPE_WORDS: Readonly<Record<string, string>> = { number: 'a number', int: 'a whole number', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array', null: 'null' }

/** What one alternative of a union expects, in words; a schema's own message (`expected {"$param": …}`) wins. */
function expectation(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : ''
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) return `${where}${TYPE_WORDS[issue.expected] ?? issue.expected}`
  if (issue.code === 'invalid_value') return `${where}one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
  return `${where}${issue.message.replace(/^expected /, '')}`
}

/** Parses a control-plane body or value; a failure answers 400 naming the field and the rule. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  if (nestsDeeperThan(value)) throw new InvalidInputError(`Invalid ${what}: the body ${NESTING_RULE}.`)
  const parsed = parseNaming(schema, value)
  if (parsed.success) return parsed.data
  const problem = firstProblem(parsed.error)
  throw new InvalidInputError(`Invalid ${what}: ${problem.path || 'body'}: ${problem.rule}`, problem.path || undefined)
}
