/**
 * One verify run: the team's answers (sent now, or read from `--against DIR`), the checks that the
 * probes themselves are right, the normalized answers saved with `--save`, then each answered probe
 * sent to svc-mock in this process with its equivalent inputs, and the two answers compared.
 */
import { readFileSync } from 'node:fs'
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { type NormalizedAnswer, normalizeAnswer } from './answer.js'
import { type ApiCredential, apiCredentialOf, probeCatalogue } from './catalogue.js'
import { misfitOf } from './checks.js'
import { compareAnswers } from './compare.js'
import { VerifyUsageError } from './flags.js'
import { type LocalSide, startLocal } from './local.js'
import type { NormalizeContext } from './normalize.js'
import type { Credentials, Origins, Place, VerifyOptions } from './options.js'
import { probeTarget } from './probe-target.js'
import { buildRequest } from './request.js'
import type { ProbeResult, RunOutcome } from './results.js'
import { readRun, saveRun } from './saved.js'

interface TeamAnswers {
  readonly answers: ReadonlyMap<string, NormalizedAnswer>
  readonly skipped: ReadonlyMap<string, string>
}

/** Runs verify as the options say. */
export async function runVerify(options: VerifyOptions, env: Readonly<Record<string, string | undefined>>): Promise<RunOutcome> {
  const saved = options.against === undefined ? undefined : readRun(options.against)
  const api = saved?.apiCredential ?? apiCredentialOf(options.credentials)
  const origins = options.origins
  const split = saved?.split ?? { auth: origins?.auth !== origins?.base, webhook: origins?.webhook !== origins?.base }
  const local = await startLocal({ routes: options.routes, split, api })
  try {
    const probes = probeCatalogue(local.userRoutes)
    let team: TeamAnswers | { stop: string }
    if (saved === undefined) team = await answersOfTeam(probes, options, api, env)
    else team = { answers: saved.answers, skipped: new Map(probes.filter((p) => !saved.answers.has(p.id)).map((p) => [p.id, p.skip ?? 'not among the saved answers'])) }
    if ('stop' in team) return team
    if (options.save !== undefined) save(options.save, { apiCredential: api, split, answers: team.answers }, probes)
    return { results: await compareWithLocal(probes, team, local) }
  } finally {
    await local.close()
  }
}

async function answersOfTeam(probes: readonly VerifyProbe[], options: VerifyOptions, api: ApiCredential, env: Readonly<Record<string, string | undefined>>): Promise<TeamAnswers | { stop: string }> {
  const phase = await probeTarget(probes, options, extraCa(env))
  if ('stop' in phase) return phase
  const misfit = misfitOf(phase.answered, options.place, api)
  if (misfit !== undefined) return { stop: misfit }
  const origins = options.origins ?? { auth: '', base: '', webhook: '' }
  const context = contextOf(origins, options.place, options.credentials, phase.token, teamNamesOf(origins.base))
  return { answers: new Map(phase.answered.map(({ probe, answer }) => [probe.id, normalizeAnswer(answer, context, probe.compare)])), skipped: phase.skipped }
}

async function compareWithLocal(probes: readonly VerifyProbe[], team: TeamAnswers, local: LocalSide): Promise<ProbeResult[]> {
  const { inputs } = local
  const context = contextOf(inputs.origins, inputs.place, inputs.credentials, inputs.token, [...local.equivalents.teamNames, ...teamNamesOf(inputs.origins.base)])
  const results: ProbeResult[] = []
  for (const probe of probes) {
    const target = team.answers.get(probe.id)
    if (target === undefined) {
      results.push({ probe, outcome: 'skipped', reason: team.skipped.get(probe.id) ?? 'not sent' })
      continue
    }
    const built = buildRequest(probe, inputs)
    if ('skip' in built) {
      results.push({ probe, outcome: 'skipped', reason: `svc-mock's side ${built.skip}` })
      continue
    }
    const sent = await local.send(built.request)
    if ('problem' in sent) {
      results.push({ probe, outcome: 'skipped', reason: sent.problem.message })
      continue
    }
    const differences = compareAnswers(target, normalizeAnswer(sent.answer, context, probe.compare), probe.compare)
    results.push(differences.length === 0 ? { probe, outcome: 'same' } : { probe, outcome: 'differs', differences })
  }
  return results
}

function save(dir: string, run: Parameters<typeof saveRun>[1], probes: readonly VerifyProbe[]): void {
  try {
    saveRun(dir, run, probes)
  } catch (error) {
    throw new VerifyUsageError(`--save ${dir}: cannot write there (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** One side's normalizer context: its addresses, element, webhook, client id, credentials and team names. */
function contextOf(origins: Origins, place: Place, credentials: Credentials, token: string | undefined, teamNames: readonly string[]): NormalizeContext {
  const literals: Array<readonly [string, string]> = Object.entries(place).map(([name, value]) => [value, `{${name}}`] as const)
  if (credentials.client !== undefined) literals.push([credentials.client.id, '{client_id}'])
  const secrets = [credentials.client?.secret, credentials.key?.value, token].filter((s): s is string => s !== undefined)
  return { origins, literals, secrets, teamNames }
}

/** A team's name as its host says it (`acme` of `acme.eu-1.celonis.cloud`); none for an address or localhost. */
function teamNamesOf(origin: string): string[] {
  if (origin === '') return []
  const host = new URL(origin).hostname
  const first = host.split('.')[0] ?? ''
  return /[a-z]/i.test(host) && !host.includes(':') && first !== 'localhost' && host.includes('.') ? [first] : []
}

/** The text of NODE_EXTRA_CA_CERTS' file, which `--ca` must not make Node forget. */
function extraCa(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const file = env.NODE_EXTRA_CA_CERTS
  if (file === undefined || file === '') return undefined
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}
