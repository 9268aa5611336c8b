/**
 * The teams routes on every way in: a server lists, makes and closes teams; in-process (msw and
 * `emu.handle()`), where there is no server to open a port on, every teams route answers 501
 * saying to start the server or to make another emulator with an origin of its own.
 */
import { expect, it } from 'vitest'
import { contract, overSocket } from '../support/harness.js'

interface TeamJson {
  name: string
  url: string
  main: boolean
  current: boolean
}

contract('teams on the control plane', { tls: true }, (h) => {
  const socket = overSocket(h.kind)

  it('a server lists its teams, the main one first and current; in-process the list is a 501 that says what to do', async () => {
    const listed = await h.control<TeamJson[] | { error: string }>('GET', '/teams')
    if (socket) {
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual([expect.objectContaining({ name: 'main', url: h.origin, main: true, current: true })])
    } else {
      expect(listed.status).toBe(501)
      expect(listed.body).toEqual({ error: expect.stringMatching(/standalone server.*createEmulator\(\{ origin: .*name: .*docs\/teams\.md/) })
    }
  })

  it('a server makes a team (201) and closes it (204); in-process both are 501', async () => {
    const made = await h.control<TeamJson>('POST', '/teams', { name: 'contract-team' })
    const closed = await h.control('DELETE', '/teams/contract-team')
    expect([made.status, closed.status]).toEqual(socket ? [201, 204] : [501, 501])
    if (socket) expect(made.body).toMatchObject({ name: 'contract-team', main: false, url: expect.stringMatching(h.kind === 'server-https' ? /^https:\/\/127\.0\.0\.1:\d+$/ : /^http:\/\/127\.0\.0\.1:\d+$/) })
  })
})
