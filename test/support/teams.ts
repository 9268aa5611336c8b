/**
 * Helpers for the teams tests: a team of a running server as a contract `Harness` (so the OAuth
 * and webhook helpers work on it), and the control plane's teams routes.
 */
import type { RunningServer, RunningTeam } from '../../src/adapters/server.js'
import type { Harness } from './harness.js'

/** A team (the main one included) driven over its own socket. */
export function teamHarness(team: RunningTeam): Harness {
  const fetchAt = (path: string, init?: RequestInit): Promise<Response> => fetch(path.startsWith('http') ? path : `${team.url}${path}`, init)
  return {
    kind: 'team',
    emu: team.emulator,
    origin: team.url,
    fetch: fetchAt,
    control: async <T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const response = await fetchAt(`/__svc-mock${path}`, {
        method,
        ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T }
    },
  }
}

/** The team of that name, or a failed test. */
export function teamOf(server: RunningServer, name: string): RunningTeam {
  const team = server.teams.get(name)
  if (!team) throw new Error(`the server has no team "${name}" (it has ${server.teams.list().map((t) => t.name).join(', ')})`)
  return team
}

/** `POST /__svc-mock/teams` on the server's main control plane. */
export async function makeTeam(server: RunningServer, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/__svc-mock/teams`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Whether anything still accepts connections at the URL. */
export async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/__svc-mock/health`, { headers: { connection: 'close' } })
    return true
  } catch {
    return false
  }
}
