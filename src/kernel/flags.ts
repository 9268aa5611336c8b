/**
 * A flag of the `svc-mock` command, declared by the module that uses the option it sets (a domain
 * module's `flags`, the server's, the run's): its name, its environment variable, the option, how
 * its text becomes the option's value, and its help. The command derives parseArgs' options, the
 * help text, the environment twins and the closest-flag hints from these declarations alone.
 * A flag only turns text into a value: the option's rules are checked where the option is used,
 * as ConfigErrors naming the option, which the command turns into the flag or variable given.
 */
import { readFileSync } from 'node:fs'

/** What a flag's text becomes. */
export type FlagValue = string | number | boolean

/** A key of the run's options, or a key and one member of it (`clock.mode`, `https.cert`). */
export type OptionPath<Options> = Extract<keyof Options, string> | `${Extract<keyof Options, string>}.${string}`

/** `Flag` alone is a flag of any options (the command's table of them all). */
export interface Flag<Options extends object = Record<string, unknown>> {
  /** `proxy`: the flag is `--proxy`. */
  readonly name: string
  /** Its environment twin, `SVC_MOCK_PROXY`. */
  readonly env: string
  /** The option it sets. A flag that sets a member (`https.cert`) wins over one that sets the whole (`https`). */
  readonly option: OptionPath<Options>
  /** `value` (the default): one value; `list`: repeatable, one value each time; `switch`: takes no value (its variable holds true or false). */
  readonly kind?: 'value' | 'list' | 'switch'
  /** What the value is, in the help and in messages (`URL`, `N`, `FILE`). */
  readonly placeholder?: string
  /** What it does, for the help: its first line goes beside the flag. */
  readonly help: string
  /** Its default, as the help shows it. */
  readonly default?: string
  /** A value for "needs a value, e.g. --port 4010". */
  readonly example?: string
  /** A list from its variable: the separator of the items (`:` between paths); without one the variable's text is one item. */
  readonly split?: string
  /** What the variable holds, beside its name in the help (`comma-separated`). */
  readonly envHelp?: string
  /** A switch: the option's value when the flag is given (default true). */
  readonly sets?: boolean
  /** Messages name the text given too: the option holds what a file contains, the user wrote its path. */
  readonly echo?: boolean
  /** The text turned into the option's value (default: the text); throws FlagTextError for text that cannot be one. */
  parse?(text: string): FlagValue
}

/** A flag's text that is not a value of its kind: `problem` says what it must be. */
export class FlagTextError extends Error {
  readonly problem: string
  constructor(problem: string) {
    super(problem)
    this.problem = problem
  }
}

/** A number, as written (NaN for text that is none): whether it is one the option takes is checked where it is used. */
export function numberText(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text)
}

/** `true` or `false`. */
export function booleanText(text: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true'
  throw new FlagTextError(`must be true or false, got ${JSON.stringify(text)}`)
}

/** What the file at this path holds (UTF-8). */
export function fileText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : String(code ?? error)
    throw new FlagTextError(`cannot be read (${why})`)
  }
}
