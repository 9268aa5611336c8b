/**
 * The flags of `svc-mock verify` in one table, each with its environment variable and its line of
 * help: parseArgs (strict), the help text and the variables are all read from it. A flag wins over
 * its variable; an unknown flag names the closest one.
 */
import { parseArgs } from 'node:util'
import { closest } from '../kernel/closest.js'

/** A bad flag, variable or value: exit 2. Its message never holds a secret's value. */
export class VerifyUsageError extends Error {}

interface Flag {
  readonly type: 'string' | 'boolean'
  readonly multiple?: boolean
  readonly short?: string
  /** The environment variable that stands in for it (a list is `:`-separated). */
  readonly env?: string
  /** What to write after the flag in the help (`URL`), none for a switch. */
  readonly value?: string
  readonly help: string
}

export const FLAGS = {
  target: { type: 'string', env: 'SVC_MOCK_VERIFY_TARGET', value: 'URL', help: "your team's address, e.g. https://acme.eu-1.celonis.cloud" },
  'auth-url': { type: 'string', env: 'SVC_MOCK_VERIFY_AUTH_URL', value: 'URL', help: 'where the token and discovery endpoints are, if not --target' },
  'base-url': { type: 'string', env: 'SVC_MOCK_VERIFY_BASE_URL', value: 'URL', help: 'where the REST API is, if not --target' },
  'webhook-url': { type: 'string', env: 'SVC_MOCK_VERIFY_WEBHOOK_URL', value: 'URL', help: 'where webhook addresses live, if not --target' },
  'client-id': { type: 'string', env: 'SVC_MOCK_VERIFY_CLIENT_ID', value: 'ID', help: 'an OAuth client of the team (client credentials, Basic)' },
  'client-secret': { type: 'string', env: 'SVC_MOCK_VERIFY_CLIENT_SECRET', value: 'SECRET', help: 'its secret (prefer the variable: a flag shows in ps)' },
  'api-key': { type: 'string', env: 'SVC_MOCK_VERIFY_API_KEY', value: 'KEY', help: 'a user API key or an application key of the team (prefer the variable)' },
  'key-kind': { type: 'string', env: 'SVC_MOCK_VERIFY_KEY_KIND', value: 'user|app', help: 'what --api-key is: user (sent as Bearer) or app (sent as AppKey)' },
  element: { type: 'string', env: 'SVC_MOCK_VERIFY_ELEMENT', value: 'C/S/F/V/E', help: 'an element to list the versions of: collection/storage/facet/view/element' },
  webhook: { type: 'string', env: 'SVC_MOCK_VERIFY_WEBHOOK', value: 'URL', help: 'a webhook whose data structure has a required field (needs --allow-writes)' },
  'allow-writes': { type: 'boolean', env: 'SVC_MOCK_VERIFY_ALLOW_WRITES', help: 'send the probes that may run something on the team (the webhook call)' },
  routes: { type: 'string', multiple: true, env: 'SVC_MOCK_ROUTES', value: 'PATH', help: 'your route files: one GET per route without path parameters; repeatable' },
  timeout: { type: 'string', env: 'SVC_MOCK_VERIFY_TIMEOUT', value: 'MS', help: 'how long each probe waits for the team, default 10000' },
  ca: { type: 'string', env: 'SVC_MOCK_VERIFY_CA', value: 'FILE', help: "a CA certificate (PEM) to trust for the team's TLS, beside the system's" },
  report: { type: 'string', env: 'SVC_MOCK_VERIFY_REPORT', value: 'FILE', help: 'also write the results: FILE.json, or FILE.xml (JUnit XML, for CI)' },
  save: { type: 'string', env: 'SVC_MOCK_VERIFY_SAVE', value: 'DIR', help: "keep the team's normalized answers in DIR" },
  against: { type: 'string', env: 'SVC_MOCK_VERIFY_AGAINST', value: 'DIR', help: 'compare svc-mock with answers --save kept, offline (no --target)' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies Record<string, Flag>

export type FlagName = keyof typeof FLAGS

/** A flag's environment variable, or its own name where it has none. */
const envOf = (name: FlagName): string => {
  const flag: Flag = FLAGS[name]
  return flag.env ?? `--${name}`
}

/** What the user gave for each flag: the value and where it came from (the flag, or its variable). */
export interface Given {
  string(name: FlagName): { value: string; from: string } | undefined
  list(name: FlagName): string[]
  on(name: FlagName): boolean
}

/** Parses the arguments after `verify` and reads the variables of the flags not given. */
export function readFlags(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Given {
  let values: Record<string, string | boolean | string[] | undefined>
  try {
    ;({ values } = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: false, strict: true }))
  } catch (error) {
    throw new VerifyUsageError(problemOf(error))
  }
  const variable = (name: FlagName): string | undefined => {
    const flag: Flag = FLAGS[name]
    const raw = flag.env === undefined ? undefined : env[flag.env]
    return raw === undefined || raw === '' ? undefined : raw
  }
  return {
    string: (name) => {
      const value = values[name]
      if (typeof value === 'string') return { value, from: `--${name}` }
      const raw = variable(name)
      return raw === undefined ? undefined : { value: raw, from: envOf(name) }
    },
    list: (name) => {
      const value = values[name]
      if (Array.isArray(value)) return value
      return variable(name)?.split(':').filter((part) => part !== '') ?? []
    },
    on: (name) => {
      if (values[name] === true) return true
      const raw = variable(name)
      if (raw === undefined || raw === 'false' || raw === '0') return false
      if (raw === 'true' || raw === '1') return true
      throw new VerifyUsageError(`${envOf(name)} must be true or false, got "${raw}"`)
    },
  }
}

/** parseArgs' complaint in verify's words, never with a value (it may be a secret). */
function problemOf(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  const flag = /'(-[^'=\s]*)/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    const near = flag.startsWith('--') ? closest(flag, Object.keys(FLAGS).map((name) => `--${name}`)) : undefined
    return `unknown flag ${flag}${near === undefined ? '' : ` (did you mean ${near}?)`}`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return 'verify takes flags only, e.g. svc-mock verify --target URL --client-id ID'
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /--[a-z-]+/.exec(message)?.[0]
    if (name !== undefined && /does not take an argument/.test(message)) return `${name} takes no value`
    if (name !== undefined) return `${name} needs a value`
  }
  return 'the flags could not be read'
}

/** The help's lines for the flags, each with its variable. */
export function flagsHelp(): string {
  return Object.entries(FLAGS)
    .map(([name, flag]: [string, Flag]) => {
      const left = `  ${flag.short === undefined ? '' : `-${flag.short}, `}--${name}${flag.value === undefined ? '' : ` ${flag.value}`}`
      return `${left.padEnd(28)}${flag.help}${flag.env === undefined ? '' : ` [${flag.env}]`}`
    })
    .join('\n')
}
