/**
 * The team's half of a run: each probe sent in order, one at a time (the platform limits the rate),
 * with the user's credentials; the access token of the token probe kept for the API probes. A probe
 * that writes is not sent without `--allow-writes`; one the team does not answer in time is skipped,
 * and after three such in a row the rest are not sent. A problem every probe would meet (an
 * untrusted certificate, nothing listening) stops the run.
 */
import type { VerifyProbe } from '../kernel/verify-probe.js'
import type { Answered } from './checks.js'
import type { VerifyOptions } from './options.js'
import { buildRequest } from './request.js'
import { type RawAnswer, targetTransport } from './transport.js'

/** Timeouts in a row after which the team is not asked any more. */
const TIMEOUTS_IN_A_ROW = 3

export type TargetPhase =
  | { readonly stop: string }
  | { readonly answered: readonly Answered[]; readonly skipped: ReadonlyMap<string, string>; readonly token: string | undefined }

const WRITES = 'needs --allow-writes: if the team accepted it, it would run something there'

/** The access token of a token endpoint's JSON answer. */
function accessTokenOf(answer: RawAnswer): string | undefined {
  if (answer.status < 200 || answer.status >= 300) return undefined
  try {
    const body = JSON.parse(new TextDecoder().decode(answer.body)) as { access_token?: unknown }
    return typeof body.access_token === 'string' ? body.access_token : undefined
  } catch {
    return undefined
  }
}

/** Sends the probes to the team; `extraCa` is the text of NODE_EXTRA_CA_CERTS' file, kept trusted beside `--ca`. */
export async function probeTarget(probes: readonly VerifyProbe[], options: VerifyOptions, extraCa: string | undefined): Promise<TargetPhase> {
  const { origins } = options
  if (origins === undefined) return { stop: 'no --target to probe' }
  const transport = targetTransport({ timeoutMs: options.timeoutMs, ca: options.ca, extraCa })
  const answered: Answered[] = []
  const skipped = new Map<string, string>()
  let token: string | undefined
  let timeouts = 0
  try {
    for (const probe of probes) {
      if (probe.skip !== undefined) {
        skipped.set(probe.id, probe.skip)
        continue
      }
      if (probe.writes === true && !options.allowWrites) {
        skipped.set(probe.id, WRITES)
        continue
      }
      const built = buildRequest(probe, { origins, place: options.place, credentials: options.credentials, token })
      if ('skip' in built) {
        skipped.set(probe.id, built.skip)
        continue
      }
      if (timeouts >= TIMEOUTS_IN_A_ROW) {
        skipped.set(probe.id, `not sent: the team did not answer the last ${TIMEOUTS_IN_A_ROW} probes in time`)
        continue
      }
      const sent = await transport.send(built.request)
      if ('problem' in sent) {
        if (sent.problem.kind === 'stop') return { stop: sent.problem.message }
        timeouts = sent.problem.kind === 'timeout' ? timeouts + 1 : 0
        skipped.set(probe.id, sent.problem.message)
        continue
      }
      timeouts = 0
      answered.push({ probe, answer: sent.answer })
      if (probe.yieldsToken === true) token = accessTokenOf(sent.answer) ?? token
    }
  } finally {
    transport.close()
  }
  return { answered, skipped, token }
}
