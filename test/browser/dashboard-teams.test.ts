/**
 * The dashboard's teams bar in a real browser (test/support/browser.ts finds one; where none runs,
 * the suite says so in one line and is skipped): on a server with teams, each team's dashboard
 * names the team it steers (under the title and in the tab's title) and links the others', main
 * first; following a link steers that team; a team made while the page is open shows up when the
 * list is opened. The bar fits the narrowest window the page supports.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BrowserContext, type Page, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { CHROMIUM_ARGS, type FoundBrowser, findChromium } from '../support/browser.js'
import { teamOf } from '../support/teams.js'

const found: FoundBrowser = await findChromium()
if (found.executablePath === undefined) console.warn(`The dashboard's teams browser test did not run: ${found.missing}`)

describe.skipIf(found.executablePath === undefined)('the dashboard teams bar in a real browser', () => {
  let server: RunningServer
  let context: BrowserContext
  let page: Page
  let profile: string
  const problems: string[] = []

  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', teams: 2 })
    profile = mkdtempSync(join(tmpdir(), 'svc-mock-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1366, height: 900 },
      reducedMotion: 'reduce',
    })
    await context.addInitScript({ path: fileURLToPath(new URL('./in-page.js', import.meta.url)) })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  })

  afterAll(async () => {
    await context?.close()
    await server?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  const open = async (url: string): Promise<void> => {
    await page.goto(url)
    await page.locator('body[data-ready="true"]').waitFor()
    await page.locator('#teams:not([hidden])').waitFor()
  }

  it("names the team it steers and links the others' dashboards, main first", async () => {
    await open(teamOf(server, 'team-1').dashboard)
    await expect.poll(() => page.locator('#team-name').textContent()).toBe('team-1')
    expect(await page.title()).toBe('svc-mock dashboard: team-1')
    await page.locator('#team-others-summary').click()
    const links = page.locator('#team-list a')
    expect(await links.allTextContents()).toEqual(['main', 'team-2'])
    expect(await links.evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))).toEqual([server.teams.list()[0]?.dashboard, teamOf(server, 'team-2').dashboard])
    expect(problems).toEqual([])
  })

  it('following a link steers that team; a team made since shows up when the list is opened again', async () => {
    await open(teamOf(server, 'team-1').dashboard)
    await page.locator('#team-others-summary').click()
    await page.locator('#team-list a', { hasText: 'team-2' }).click()
    await page.locator('body[data-ready="true"]').waitFor()
    await expect.poll(() => page.locator('#team-name').textContent()).toBe('team-2')
    await server.teams.create({ name: 'late' })
    await page.locator('#team-others-summary').click()
    await page.locator('#team-list a', { hasText: 'late' }).waitFor()
    expect(await page.locator('#team-others-summary').textContent()).toBe('3 other teams')
  })

  it('fits a 360 px window with the list open', async () => {
    await page.setViewportSize({ width: 360, height: 800 })
    await open(teamOf(server, 'team-1').dashboard)
    await page.locator('#team-others-summary').click()
    expect(await page.evaluate<string[]>('layoutProblems()')).toEqual([])
    await page.setViewportSize({ width: 1366, height: 900 })
  })
})
