/**
 * svc-mock's side of the comparison: an emulator in this process with the default fixtures and the
 * user's route files, answering each probe through `emu.handle()` (no socket), with the fixtures'
 * equivalent credentials, element and webhook. Its addresses split as the team's do, so a probe
 * meets the same layout on both sides.
 */
import { withFetch } from '../adapters/fetch.js'
import { DEFAULT_ORIGIN, buildEmulator } from '../emulator.js'
import type { EmulatorOptions } from '../emulator-api.js'
import type { RouteInfo } from '../kernel/kernel.js'
import { type ApiCredential, type LocalEquivalents, localCredentials, localEquivalents } from './catalogue.js'
import type { Origins } from './options.js'
import type { ProbeRequest, SideInputs } from './request.js'
import type { RawAnswer, Sent } from './transport.js'

export interface LocalSide {
  readonly inputs: SideInputs
  readonly equivalents: LocalEquivalents
  readonly userRoutes: readonly RouteInfo[]
  send(request: ProbeRequest): Promise<Sent>
  close(): Promise<void>
}

/** An origin of its own beside the default one (`https://auth.acme.svc-mock.test`). */
const beside = (name: string): string => DEFAULT_ORIGIN.replace('://', `://${name}.`)

/** The in-process emulator; `split` says which of the team's addresses have origins of their own. */
export async function startLocal(options: { routes: readonly string[]; split: { auth: boolean; webhook: boolean }; api: ApiCredential }): Promise<LocalSide> {
  const emulatorOptions: EmulatorOptions = {
    origin: DEFAULT_ORIGIN,
    ...(options.split.auth ? { authUrl: beside('auth') } : {}),
    ...(options.split.webhook ? { webhookUrl: beside('hooks') } : {}),
    ...(options.routes.length === 0 ? {} : { routes: [...options.routes] }),
    log: 'silent',
  }
  const emu = withFetch(await buildEmulator(emulatorOptions))
  const equivalents = localEquivalents()
  const credentials = localCredentials(equivalents, options.api)
  const token = options.api === 'token' && credentials.client !== undefined ? (await emu.oauth.issueToken({ clientId: credentials.client.id })).access_token : undefined
  const origins: Origins = { auth: emu.urls.auth, base: emu.urls.base, webhook: emu.urls.webhook }
  return {
    inputs: { origins, place: equivalents.place, credentials, token },
    equivalents,
    userRoutes: emu.userRoutes.list(),
    send: async (request) => {
      try {
        const init: RequestInit = { method: request.method, headers: request.headers, redirect: 'manual', ...(request.body === undefined ? {} : { body: request.body }) }
        const response = await emu.handle(new Request(request.url, init))
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => (headers[name] = value))
        const answer: RawAnswer = { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) }
        return { answer }
      } catch (error) {
        return { problem: { kind: 'skip', message: `svc-mock did not answer: ${error instanceof Error ? error.message : String(error)}` } }
      }
    },
    close: () => emu.close(),
  }
}
