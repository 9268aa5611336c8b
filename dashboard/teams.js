// @ts-check
/**
 * Which team the page steers, and links to the others' dashboards: a standalone server's teams
 * (`GET /__svc-mock/teams`), read when the page connects and whenever the list is opened (teams
 * come and go without a state event). An emulator without teams (in-process: 501) shows nothing.
 */
import { api } from './api.js'
import { fill, h, setText } from './dom.js'

/**
 * @typedef {import('../src/index.js').TeamInfo & { current: boolean }} TeamListing
 * @typedef {{ current: string | undefined, others: { name: string, href: string }[], summary: string, title: string }} TeamsView
 */

/**
 * What the bar says for a list of teams: the team answering (the one marked `current`), the
 * others with their dashboards, main first, and the page title that tells browser tabs apart.
 * @param {readonly TeamListing[]} teams
 * @returns {TeamsView}
 */
export function teamsView(teams) {
  const current = teams.find((team) => team.current)?.name
  const others = teams.filter((team) => !team.current).map((team) => ({ name: team.name, href: team.dashboard }))
  return {
    current,
    others,
    summary: others.length === 0 ? 'No other teams' : `${others.length} other team${others.length === 1 ? '' : 's'}`,
    title: current === undefined || (current === 'main' && others.length === 0) ? 'svc-mock dashboard' : `svc-mock dashboard: ${current}`,
  }
}

/**
 * @param {{ bar: HTMLElement, name: HTMLElement, others: HTMLDetailsElement, summary: HTMLElement, list: HTMLUListElement }} els
 * @returns {() => void} reads the teams again and shows them
 */
export function teamsBar(els) {
  const refresh = () => {
    api.teams().then(
      (teams) => {
        const view = teamsView(teams)
        els.bar.hidden = view.current === undefined
        setText(els.name, view.current ?? '')
        setText(els.summary, view.summary)
        els.others.hidden = view.others.length === 0
        fill(els.list, view.others.map((team) => h('li', {}, h('a', { href: team.href }, team.name))))
        document.title = view.title
      },
      () => {
        els.bar.hidden = true
      },
    )
  }
  els.others.addEventListener('toggle', () => {
    if (els.others.open) refresh()
  })
  return refresh
}
