/**
 * `--report FILE.json` and `--report FILE.xml`: the run's results for CI. The JSON report holds each
 * probe with its outcome and differences; the JUnit XML report, as CI systems read it, one test
 * suite per API and one test case per probe (a difference is a failure, a skipped probe skipped; a
 * run that stopped is one test case in error). Both are made from the results, which hold no
 * credential (every value in them was normalized).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { VERSION } from '../version.js'
import { type ProbeResult, type RunOutcome, describeDifference, tally } from './results.js'

export interface ReportTarget {
  /** What was compared with svc-mock: the team's address, or the folder of saved answers. */
  readonly target: string
  readonly durationMs: number
}

/** Writes the report in the format its name asks for. */
export function writeReport(file: string, format: 'json' | 'junit', outcome: RunOutcome, meta: ReportTarget): void {
  const text = format === 'json' ? `${JSON.stringify(jsonReport(outcome, meta), null, 2)}\n` : junitReport(outcome, meta)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(`${file}.tmp`, text)
  renameSync(`${file}.tmp`, file)
}

export function jsonReport(outcome: RunOutcome, meta: ReportTarget): object {
  const base = { svcMockVerify: 1, version: VERSION, target: meta.target, durationMs: meta.durationMs }
  if ('stop' in outcome) return { ...base, stopped: outcome.stop, summary: { same: 0, differ: 0, skipped: 0 }, probes: [] }
  return {
    ...base,
    summary: tally(outcome.results),
    probes: outcome.results.map((r) => ({
      id: r.probe.id,
      api: r.probe.api,
      title: r.probe.title,
      outcome: r.outcome,
      ...(r.outcome === 'differs' ? { differences: r.differences.map((d) => ({ ...d, text: describeDifference(d) })) } : {}),
      ...(r.outcome === 'skipped' ? { reason: r.reason } : {}),
    })),
  }
}

/** Text as XML allows it: the five entities escaped, characters XML 1.0 cannot hold dropped. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3)

function testCase(result: ProbeResult): string {
  const open = `    <testcase classname="svc-mock verify.${xml(result.probe.api)}" name="${xml(`${result.probe.id}: ${result.probe.title}`)}"`
  if (result.outcome === 'same') return `${open}/>`
  if (result.outcome === 'skipped') return `${open}>\n      <skipped message="${xml(result.reason)}"/>\n    </testcase>`
  const lines = result.differences.map(describeDifference)
  return `${open}>\n      <failure message="${xml(lines[0] ?? 'differs')}" type="differs">${xml(lines.join('\n'))}</failure>\n    </testcase>`
}

export function junitReport(outcome: RunOutcome, meta: ReportTarget): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>'
  const name = `svc-mock verify ${VERSION} against ${meta.target}`
  if ('stop' in outcome) {
    return `${head}\n<testsuites name="${xml(name)}" tests="1" failures="0" errors="1" skipped="0" time="${seconds(meta.durationMs)}">\n  <testsuite name="svc-mock verify" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="svc-mock verify" name="verify">\n      <error message="${xml(outcome.stop)}" type="stopped"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n`
  }
  const apis = [...new Set(outcome.results.map((r) => r.probe.api))]
  const suites = apis.map((api) => {
    const results = outcome.results.filter((r) => r.probe.api === api)
    const t = tally(results)
    return `  <testsuite name="${xml(api)}" tests="${results.length}" failures="${t.differ}" errors="0" skipped="${t.skipped}">\n${results.map(testCase).join('\n')}\n  </testsuite>`
  })
  const t = tally(outcome.results)
  return `${head}\n<testsuites name="${xml(name)}" tests="${outcome.results.length}" failures="${t.differ}" errors="0" skipped="${t.skipped}" time="${seconds(meta.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`
}
