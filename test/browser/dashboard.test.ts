/**
 * The dashboard in a real browser: Debian's Chromium (`apt-get install chromium`), driven by
 * playwright-core, against the standalone server. It switches `webhook-queue-full` on by
 * clicking, sends a webhook call from the test and sees the 400 appear in the journal, then
 * steers everything else the page offers, by mouse and keyboard. Screenshots go to
 * test/artifacts/ (not committed; docs/dashboard.png is a copy of the wide one).
 *
 * Nothing here waits on the wall clock: Playwright's locators wait for what the page shows, and
 * the emulator is read through its own API.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type Locator, type Page, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { basic } from '../support/oauth.js'

const CHROMIUM = '/usr/bin/chromium'
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts')

let server: RunningServer
let context: BrowserContext
let page: Page
let profile: string
const problems: string[] = []

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The dashboard's browser test needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does this).`)
  }
  mkdirSync(ARTIFACTS, { recursive: true })
  server = await startServer({ port: 0, log: 'silent' })
  profile = mkdtempSync(join(tmpdir(), 'svc-mock-chromium-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    reducedMotion: 'reduce',
  })
  page = context.pages()[0] ?? (await context.newPage())
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
})

afterAll(async () => {
  await context?.close()
  await server?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
})

/** Waits until the page's live region has announced `text` (what it says once a change is made). */
async function announced(text: string): Promise<void> {
  await page.locator('#announcer').filter({ hasText: text }).waitFor({ state: 'attached' })
}

/** One attribute of every element a locator finds, in order. */
async function attributes(locator: Locator, name: string): Promise<Array<string | null>> {
  return await Promise.all((await locator.all()).map((el) => el.getAttribute(name)))
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  return await fetch(`${server.url}${path}`, init)
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return await send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

describe('the dashboard in Chromium', () => {
  it('switches webhook-queue-full on by clicking, and shows the refused webhook call (400) in the journal at once', async () => {
    // Some traffic first, so the journal has a history.
    await send('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', {
      headers: { authorization: 'AppKey svcmock-app-key' },
    })
    await send('/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic('ci-client', 'ci-secret'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=studio',
    })
    expect((await postJson('/hooks/orders', { orderId: 'A-1', amount: '12.50' })).status).toBe(200)

    await page.goto(`${server.url}/__svc-mock/`)
    await page.locator('body[data-ready="true"]').waitFor()
    await page.locator('#connection[data-state="live"]').waitFor()
    await page.locator('li.entry[data-route="webhooks.receive"][data-status="200"]').waitFor()

    const toggle = page.getByRole('switch', { name: 'webhook-queue-full' })
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    await toggle.click()
    await page.locator('li.scenario[data-name="webhook-queue-full"] .switch[aria-checked="true"]').waitFor()
    await announced('Scenario webhook-queue-full switched on.')
    expect(server.emulator.scenarios.list().find((s) => s.name === 'webhook-queue-full')?.active).toBe(true)

    const refused = await postJson('/hooks/orders', { orderId: 'A-2' })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toBe('Queue is full.')

    const row = page.locator('li.entry[data-route="webhooks.receive"][data-status="400"]')
    await row.waitFor()
    // Newest first: the refused call heads the list.
    expect(await page.locator('li.entry:not([hidden])').first().getAttribute('data-status')).toBe('400')
    const summary = row.locator('summary')
    expect(await summary.innerText()).toMatch(/400[\s\S]*POST[\s\S]*\/hooks\/orders[\s\S]*webhooks\.receive[\s\S]*webhook-queue-full/)

    // Expand it with the keyboard: its headers and body, the scenario that shaped it.
    await summary.focus()
    await page.keyboard.press('Enter')
    const body = row.locator('.entry-body')
    await body.getByText('Queue is full.').waitFor()
    expect(await body.locator('.facts').innerText()).toContain('webhook-queue-full')

    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-1280x800.png') })

    // A narrow window: one column, nothing wider than the window.
    await page.setViewportSize({ width: 420, height: 900 })
    await row.waitFor()
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(420)
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-420.png') })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('filters the journal by route and status', async () => {
    const rows = page.locator('li.entry:not([hidden])')
    // The filter applies as the selection changes.
    await page.getByLabel('Status').selectOption({ label: '4xx client error' })
    expect(await attributes(rows, 'data-status')).toEqual(['400'])
    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Route').selectOption('auth.token')
    expect(await attributes(rows, 'data-route')).toEqual(['auth.token'])
    // Its credentials and the token it answered are redacted, as in every journal entry.
    const tokenRow = rows.first()
    await tokenRow.locator('summary').click()
    await tokenRow.getByText('Basic [redacted]').waitFor()
    expect(await tokenRow.locator('section[aria-label="Response"] pre.body').innerText()).toContain('"access_token": "[redacted]"')
    expect(await page.content()).not.toContain('ci-secret')
    await tokenRow.locator('summary').click()
    await page.getByLabel('Path contains').fill('/hooks/')
    expect(await rows.count()).toBe(0)
    await page.getByText('No request matches these filters.').waitFor()
    await page.getByLabel('Path contains').fill('')
    await page.getByLabel('Route').selectOption('')
    // Every route, the control plane's included: the switch just clicked is there too.
    await page.locator('li.entry[data-route="control.scenarios.on"]:not([hidden])').waitFor()
    await page.getByLabel('Route').selectOption('!control')
  })

  it('steers flows from the Webhooks tab, reached with the keyboard', async () => {
    const scenariosTab = page.getByRole('tab', { name: /Scenarios/ })
    await scenariosTab.focus()
    await page.keyboard.press('ArrowRight')
    const webhooksTab = page.getByRole('tab', { name: 'Webhooks' })
    expect(await webhooksTab.getAttribute('aria-selected')).toBe('true')
    const card = page.locator('li.webhook[data-id="orders"]')
    await card.waitFor()
    // The scenario is still on: the card says what calls meet now.
    expect(await card.locator('.note').innerText()).toContain('webhook-queue-full')
    expect(await card.locator('.pill').first().innerText()).toBe('Inactive')

    const active = page.getByRole('switch', { name: 'Flow active (orders)' })
    await active.click()
    await card.locator('.switch[aria-checked="false"]').waitFor()
    await announced('Flow of orders deactivated.')
    expect(server.emulator.webhooks.get('orders').flow.active).toBe(false)
    await active.click()
    await card.locator('.switch[aria-checked="true"]').waitFor()

    await card.getByLabel('Outcome').selectOption('fail')
    await announced('Flow of orders now ends with fail.')
    expect(server.emulator.webhooks.get('orders').flow.outcome).toBe('fail')

    await page.getByRole('tab', { name: /Scenarios/ }).click()
    await page.getByRole('switch', { name: 'webhook-queue-full' }).click()
    await page.locator('li.scenario[data-name="webhook-queue-full"] .switch[aria-checked="false"]').waitFor()
    expect((await postJson('/hooks/orders', { orderId: 'A-3' })).status).toBe(200)
    await page.getByRole('tab', { name: 'Webhooks' }).click()
    await card.getByText(/^Executions \(2\)$/).click()
    await card.locator('.runs li').filter({ hasText: 'fail' }).first().waitFor()
  })

  it('switches a scenario on with options: parameters, times and a target webhook', async () => {
    await page.getByRole('tab', { name: /Scenarios/ }).click()
    const item = page.locator('li.scenario[data-name="webhook-queue-full"]')
    await item.locator('summary').filter({ hasText: 'Options' }).click()
    await item.getByLabel('capacity').fill('2')
    await item.getByLabel('Times (requests it touches)').fill('5')
    await item.getByLabel('Only webhook').selectOption('uploads')
    await item.getByRole('button', { name: 'Switch on with these options' }).click()
    await item.locator('.activation').getByText('On for the run · 5 requests left · webhook uploads · capacity=2.').waitFor()
    expect(server.emulator.scenarios.list().find((s) => s.name === 'webhook-queue-full')?.activation).toMatchObject({
      params: { capacity: 2 },
      target: { webhook: 'uploads' },
      remaining: 5,
    })
  })

  it('advances the clock', async () => {
    const before = server.emulator.clock.now().getTime()
    await page.getByLabel('Advance by').fill('90')
    await page.getByLabel('Unit').selectOption('60000')
    await page.getByRole('button', { name: 'Advance' }).click()
    await announced('Clock advanced by 5,400,000 ms.')
    expect(server.emulator.clock.now().getTime() - before).toBeGreaterThanOrEqual(90 * 60_000)
  })

  it('regenerates a client secret and shows it once', async () => {
    await page.getByRole('tab', { name: 'OAuth' }).click()
    await page.getByRole('button', { name: 'Regenerate secret of ci-client' }).click()
    const confirm = page.getByRole('dialog', { name: 'Regenerate the secret of ci-client?' })
    await confirm.getByRole('button', { name: 'Regenerate' }).click()
    const shown = page.getByRole('dialog', { name: 'New client secret' })
    await shown.waitFor()
    const secret = await shown.getByLabel('Client secret').inputValue()
    expect(secret).toMatch(/^\S{20,}$/)
    const token = await send('/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic('ci-client', secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(token.status).toBe(200)
    await shown.getByRole('button', { name: 'Done' }).click()
    await shown.waitFor({ state: 'hidden' })
    // Gone from the page once the dialog closes, and back on the button that opened it.
    expect(await page.content()).not.toContain(secret)
    expect(await Promise.all((await page.locator('input').all()).map((input) => input.inputValue()))).not.toContain(secret)
    expect(await page.locator(':focus').innerText()).toContain('Regenerate secret')
  })

  it("shows a user's consent as it is given, and revokes it", async () => {
    const authorize = await send(`/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web-app', redirect_uri: 'http://127.0.0.1/callback', scope: 'studio', login_hint: 'alice' })}`, {
      redirect: 'manual',
    })
    expect(authorize.status).toBe(302)
    const consent = page.locator('li.user[data-id="alice"] li.consent')
    await consent.getByRole('code').filter({ hasText: 'web-app' }).waitFor()
    await page.getByRole('button', { name: 'Revoke consent of alice for web-app' }).click()
    await page.getByRole('dialog', { name: "Revoke alice's consent for web-app?" }).getByRole('button', { name: 'Revoke' }).click()
    await consent.waitFor({ state: 'detached' })
    expect(server.emulator.oauth.consents.list('alice')).toEqual([])
  })

  it('resets to the fixtures after asking', async () => {
    await page.getByRole('button', { name: 'Reset to fixtures' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset the emulator to its fixtures?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(server.emulator.scenarios.list().some((s) => s.active)).toBe(true)

    await page.getByRole('button', { name: 'Reset to fixtures' }).click()
    await dialog.getByRole('button', { name: 'Reset' }).click()
    // The journal starts over: only the reset itself, a control-plane call the default filter hides.
    await page.getByText('No requests yet apart from control-plane calls').waitFor()
    expect(await attributes(page.locator('li.entry'), 'data-route')).toEqual(['control.reset'])
    await page.getByRole('tab', { name: /Scenarios/ }).click()
    await page.locator('li.scenario[data-name="webhook-queue-full"] .switch[aria-checked="false"]').waitFor()
    expect(server.emulator.webhooks.get('orders').flow.outcome).toBe('succeed')
  })

  it('logged no error or warning in the browser', () => {
    expect(problems).toEqual([])
  })
})
