/**
 * The command's flags, one table made of what each module declares for its options: the server's
 * (adapters/server-flags.ts), the run's (run-inputs.ts, emulator-options.ts), each domain's
 * (`flags` of its module, through src/domains.ts), and the command's own `--help` and `--version`.
 * parseArgs' options, the closest-flag hints, the "needs a value" examples and the help's options
 * come from it; nothing here names a flag of an option.
 */
import { parseArgs } from 'node:util'
import { SERVER_FLAGS } from '../adapters/server-flags.js'
import { DOMAIN_FLAGS } from '../domains.js'
import { OPTION_FLAGS } from '../emulator-options.js'
import { closest } from '../kernel/closest.js'
import type { Flag } from '../kernel/flags.js'
import type { LogFormat } from '../kernel/logger.js'
import { INPUT_FLAGS } from '../run-inputs.js'
import type { CliIo } from './io.js'

/** Every flag of an option, in the order the help lists them: where it listens, what it runs, each domain's. */
export const FLAGS: readonly Flag[] = [...SERVER_FLAGS, ...INPUT_FLAGS, ...OPTION_FLAGS, ...DOMAIN_FLAGS]

/** The command's own flags, which set no option. */
const COMMAND_FLAGS = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } as const

/** What parseArgs gives back: a flag's text, each text of a repeatable one, or true for a switch. */
export type ParsedValues = Readonly<Record<string, string | boolean | string[] | undefined>>

type ParseArgsOption = { type: 'string' | 'boolean'; multiple?: boolean; short?: string }

const PARSE_OPTIONS: Readonly<Record<string, ParseArgsOption>> = {
  ...Object.fromEntries(FLAGS.map((flag) => [flag.name, { type: flag.kind === 'switch' ? 'boolean' : 'string', ...(flag.kind === 'list' ? { multiple: true } : {}) }])),
  ...COMMAND_FLAGS,
}

const NAMES: readonly string[] = Object.keys(PARSE_OPTIONS).map((name) => `--${name}`)

/** The flags before `--`, read strictly: an unknown flag throws. */
export function parse(argv: readonly string[]): { values: ParsedValues; positionals: string[] } {
  const { values, positionals } = parseArgs({ args: [...argv], options: PARSE_OPTIONS, allowPositionals: true, strict: true })
  return { values: values as ParsedValues, positionals }
}

/** ` (did you mean "x"?)`, or nothing when no candidate is near. */
export function hint(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates)
  return near === undefined ? '' : ` (did you mean ${near}?)`
}

/** parseArgs' complaint in svc-mock's words: the flag it did not know, and the closest it does. */
export function parseProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'(-[^']*)'/.exec(message)?.[1] ?? message
    const name = flag.replace(/=.*$/, '')
    return `unknown flag ${name}${name.startsWith('--') ? hint(name, NAMES) : ''}. svc-mock --help lists the flags.`
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[a-z-]+/.exec(message)?.[0]
    if (flag && /argument missing|argument is ambiguous/.test(message)) return `${flag} needs a value, e.g. ${flag} ${FLAGS.find((f) => `--${f.name}` === flag)?.example ?? '…'}`
    if (flag && /does not take an argument/.test(message)) return `${flag} takes no value`
  }
  return `${message}. svc-mock --help lists the flags.`
}

/** The flag that sets this option. */
export function flagOf(option: string): Flag | undefined {
  return FLAGS.find((flag) => flag.option === option)
}

/** The log format asked for, read before the full parse so even a parse error can be JSON. */
export function logFormatHint(argv: readonly string[], env: CliIo['env']): LogFormat {
  const log = flagOf('log')
  if (log === undefined) return 'pretty'
  const flag = `--${log.name}`
  let value: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? ''
    if (token === '--') break
    if (token === flag) value = argv[i + 1]
    else if (token.startsWith(`${flag}=`)) value = token.slice(flag.length + 1)
  }
  value ??= env[log.env]
  return value === 'json' || value === 'silent' ? value : 'pretty'
}
