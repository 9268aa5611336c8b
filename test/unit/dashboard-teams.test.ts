/**
 * The dashboard's teams bar (dashboard/teams.js; its view is plain JavaScript with no DOM, so it
 * runs here): it names the team the page steers, links every other team's dashboard, main first,
 * and titles the page after its team so browser tabs of several teams tell apart.
 */
import { describe, expect, it } from 'vitest'
import type { TeamInfo } from '../../src/index.js'

type Listing = TeamInfo & { current: boolean }
type TeamsView = (teams: readonly Listing[]) => { current: string | undefined; others: Array<{ name: string; href: string }>; summary: string; title: string }
const modulePath = '../../dashboard/teams.js'
const { teamsView } = (await import(modulePath)) as { teamsView: TeamsView }

const team = (name: string, port: number, current = false): Listing => ({
  name,
  url: `http://127.0.0.1:${port}`,
  port,
  main: name === 'main',
  seed: 1,
  dashboard: `http://127.0.0.1:${port}/__svc-mock/`,
  current,
})

describe('the dashboard teams bar', () => {
  it('names the team the page steers and links the others, main first', () => {
    const view = teamsView([team('main', 4010), team('team-1', 4011, true), team('team-2', 4012)])
    expect(view.current).toBe('team-1')
    expect(view.others).toEqual([
      { name: 'main', href: 'http://127.0.0.1:4010/__svc-mock/' },
      { name: 'team-2', href: 'http://127.0.0.1:4012/__svc-mock/' },
    ])
    expect(view.summary).toBe('2 other teams')
    expect(view.title).toBe('svc-mock dashboard: team-1')
  })

  it('on a server without teams, says main and keeps the plain title', () => {
    const view = teamsView([team('main', 4010, true)])
    expect([view.current, view.others, view.summary, view.title]).toEqual(['main', [], 'No other teams', 'svc-mock dashboard'])
  })
})
