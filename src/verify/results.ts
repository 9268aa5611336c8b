/**
 * What a verify run found, probe by probe (same, differs with where and what, skipped with why),
 * and the words each is shown in: the lines of the output, the summary line, and a difference as
 * one phrase. The reports (JSON, JUnit XML) are made from the same results.
 */
import type { VerifyProbe } from '../kernel/verify-probe.js'
import type { Difference } from './compare.js'

export type ProbeResult =
  | { readonly probe: VerifyProbe; readonly outcome: 'same' }
  | { readonly probe: VerifyProbe; readonly outcome: 'differs'; readonly differences: readonly Difference[] }
  | { readonly probe: VerifyProbe; readonly outcome: 'skipped'; readonly reason: string }

/** The run's results, or the message that stopped it before anything was compared. */
export type RunOutcome = { readonly results: readonly ProbeResult[] } | { readonly stop: string }

export interface Tally {
  readonly same: number
  readonly differ: number
  readonly skipped: number
}

export function tally(results: readonly ProbeResult[]): Tally {
  return {
    same: results.filter((r) => r.outcome === 'same').length,
    differ: results.filter((r) => r.outcome === 'differs').length,
    skipped: results.filter((r) => r.outcome === 'skipped').length,
  }
}

/** `verify: N same, M differ, K skipped`. */
export function summaryLine(results: readonly ProbeResult[]): string {
  const { same, differ, skipped } = tally(results)
  return `verify: ${same} same, ${differ} differ, ${skipped} skipped`
}

/** One difference as a phrase: `$.expires_in: string on the target, number in svc-mock`. */
export function describeDifference(difference: Difference): string {
  const { at, target, svcMock } = difference
  if (target === undefined) return `${at}: only in svc-mock${svcMock === undefined ? '' : ` (${svcMock})`}`
  if (svcMock === undefined) return `${at}: only on the target (${target})`
  return `${at}: ${target} on the target, ${svcMock} in svc-mock`
}

const LABELS = { same: 'same', differs: 'differs', skipped: 'skipped' } as const

/** The output's lines: one per probe (a probe that differs in several places continues below). */
export function resultLines(results: readonly ProbeResult[]): string[] {
  const width = Math.min(40, Math.max(0, ...results.map((r) => r.probe.id.length)))
  const lines: string[] = []
  for (const result of results) {
    const head = `${LABELS[result.outcome].padEnd(8)} ${result.probe.id.padEnd(width)}  `
    if (result.outcome === 'same') lines.push(`${head}${result.probe.title}`)
    else if (result.outcome === 'skipped') lines.push(`${head}${result.reason}`)
    else {
      const [first, ...rest] = result.differences.map(describeDifference)
      lines.push(`${head}${first ?? ''}`)
      for (const line of rest) lines.push(`${' '.repeat(head.length)}${line}`)
    }
  }
  return lines
}
