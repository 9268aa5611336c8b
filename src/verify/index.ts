/**
 * `svc-mock verify`: is svc-mock still the platform? Reads its flags, runs the probes against the
 * team (or the answers saved from it) and svc-mock in this process, prints a line per probe and the
 * summary, and writes the report. Loaded by the command only when verify runs (a plain import()),
 * so nothing of it is part of `import 'svc-mock'`.
 * Exit codes: 0 nothing differs, 1 something differs, 2 a bad flag or a run that compared nothing.
 */
import { SvcMockError } from '../kernel/errors.js'
import { VERSION } from '../version.js'
import { VerifyUsageError } from './flags.js'
import { verifyHelp } from './help.js'
import { type VerifyOptions, verifyOptions } from './options.js'
import { writeReport } from './reports.js'
import { type RunOutcome, resultLines, summaryLine, tally } from './results.js'
import { runVerify } from './run.js'

/** Where verify writes its lines and reads its environment (the command hands in its own). */
export interface VerifyIo {
  out: (text: string) => void
  err: (text: string) => void
  env: Readonly<Record<string, string | undefined>>
}

/** Runs `svc-mock verify ARGS`; resolves with the exit code. */
export async function verify(argv: readonly string[], io: VerifyIo): Promise<number> {
  let options: VerifyOptions
  try {
    options = verifyOptions(argv, io.env)
  } catch (error) {
    if (!(error instanceof VerifyUsageError)) throw error
    io.err(`svc-mock verify: ${error.message}\nRun svc-mock verify --help for the flags.`)
    return 2
  }
  if (options.help) {
    io.out(verifyHelp())
    return 0
  }
  const target = options.against === undefined ? describeTarget(options) : `the answers saved in ${options.against}`
  const started = performance.now()
  const report = (outcome: RunOutcome): void => {
    const { report: asked } = options
    if (asked === undefined) return
    try {
      writeReport(asked.file, asked.format, outcome, { target, durationMs: Math.round(performance.now() - started) })
    } catch (error) {
      throw new VerifyUsageError(`--report ${asked.file}: cannot write it (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  try {
    io.out(`svc-mock verify: ${target} against svc-mock ${VERSION}${options.allowWrites ? '' : ' (read-only)'}`)
    const outcome = await runVerify(options, io.env)
    report(outcome)
    if ('stop' in outcome) {
      io.err(`svc-mock verify: stopped, nothing compared: ${outcome.stop}`)
      return 2
    }
    for (const line of resultLines(outcome.results)) io.out(line)
    io.out(summaryLine(outcome.results))
    const { same, differ } = tally(outcome.results)
    if (same + differ === 0) {
      io.err('svc-mock verify: nothing was compared: every probe was skipped (the lines above say why)')
      return 2
    }
    return differ > 0 ? 1 : 0
  } catch (error) {
    if (error instanceof VerifyUsageError || error instanceof SvcMockError) {
      io.err(`svc-mock verify: ${error.message}`)
      return 2
    }
    io.err(`svc-mock verify: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 1
  }
}

/** The team's address (its addresses, where they differ), never a credential. */
function describeTarget(options: VerifyOptions): string {
  const origins = options.origins
  if (origins === undefined) return 'no team'
  const apart = (['auth', 'webhook'] as const).filter((name) => origins[name] !== origins.base).map((name) => `${name} ${origins[name]}`)
  return apart.length === 0 ? origins.base : `${origins.base} (${apart.join(', ')})`
}
