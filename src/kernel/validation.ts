/**
 * zod helpers shared by fixtures, scenario files and control-plane bodies: one way to name the
 * field that failed (`rules[0].delay`) and the rule it broke.
 */
import type * as z from 'zod'
import { InvalidInputError } from './errors.js'
import { NESTING_RULE, nestsDeeperThan } from './nesting.js'

export interface ValidationProblem {
  /** Where in the document, as `a.b[2].c`; empty for the document itself. */
  path: string
  /** What rule was broken, in words. */
  rule: string
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/** The first problem of a failed parse (zod reports the most useful one first). */
export function firstProblem(error: z.ZodError): ValidationProblem {
  const issue = error.issues[0]
  if (!issue) return { path: '', rule: 'is not valid' }
  return { path: formatPath(issue.path), rule: describeIssue(issue) }
}

export function allProblems(error: z.ZodError): ValidationProblem[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), rule: describeIssue(issue) }))
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
  return issue.message
}

/** Parses a control-plane body or value; a failure answers 400 naming the field and the rule. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  if (nestsDeeperThan(value)) throw new InvalidInputError(`Invalid ${what}: the body ${NESTING_RULE}.`)
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const problem = firstProblem(parsed.error)
  throw new InvalidInputError(`Invalid ${what}: ${problem.path || 'body'}: ${problem.rule}`, problem.path || undefined)
}
