/**
 * The dashboard in a real browser: a headless Chromium (test/support/browser.ts finds one without
 * a system package manager: SVC_MOCK_CHROMIUM, the system's, or the one the devDependency
 * `@sparticuz/chromium` ships), driven by playwright-core, against the standalone server. At 400 px
 * and at 1366 px it checks the layout (nothing overlaps, a long path keeps its element id or webhook
 * token in view, the full URL in the detail), says what wins for a webhook and a client a scenario
 * overrides, the scenarios panel (what is on first, search, the command-line and header forms, the
 * saved scenario file run by the real `svc-mock --scenarios DIR`), the journal (pause, clear, HAR
 * export opened back, copy as curl run by the real curl, the near miss) and device logins
 * (approve, deny); then the layout at every width from 360 to 1920 px, and the steering the page
 * has always offered, and that the page is one screen at desktop sizes (1280x900, 1920x1080: only
 * the panels scroll). Where no browser or no curl can run, the suite says so in one line and is
 * skipped. Screenshots of each state go to test/artifacts/ (git-ignored; docs/dashboard.png is a
 * copy of one).
 *
 * Nothing here waits on the wall clock: Playwright's locators wait for what the page shows, and
 * the emulator is read through its own API.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type BrowserContext, type Download, type Locator, type Page, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { scenarioSchemas } from '../../src/kernel/scenarios/schema.js'
import { CHROMIUM_ARGS, type FoundBrowser, findChromium, onPath } from '../support/browser.js'
import { parseHar } from '../support/har.js'
import { SEED_ELEMENT, VERSIONS } from '../support/harness.js'
import { basic } from '../support/oauth.js'

const BIN = fileURLToPath(new URL('../../bin/svc-mock.js', import.meta.url))
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts')
const WIDTHS = [400, 1366] as const
const run = promisify(execFile)

// What the suite needs: a browser, and curl to replay a copied request.
const found: FoundBrowser = onPath('curl') ? await findChromium() : { executablePath: undefined, missing: 'no curl on PATH (copy as curl is replayed for real): install curl (e.g. apt-get install curl).' }
if (found.executablePath === undefined) console.warn(`The dashboard's browser test did not run: ${found.missing}`)

let server: RunningServer
let context: BrowserContext
let page: Page
let profile: string
const problems: string[] = []
const cleanup: Array<() => void> = []

// Helpers -----------------------------------------------------------------------------------------

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

async function postForm(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return await send(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString() })
}

async function shot(name: string, width: number): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`) })
}

async function clipboard(): Promise<string> {
  return await page.evaluate<string>('navigator.clipboard.readText()')
}

async function downloaded(click: () => Promise<void>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  const path = await download.path()
  return { download, text: readFileSync(path, 'utf8') }
}

/** A fresh page at this width on an emulator back at its fixtures. */
async function openAt(width: number): Promise<void> {
  await server.emulator.reset()
  await page.setViewportSize({ width, height: 900 })
  await page.goto(`${server.url}/__svc-mock/`)
  await page.locator('body[data-ready="true"]').waitFor()
  await page.locator('#connection[data-state="live"]').waitFor()
}

/** What overlaps or spills out, as the page is laid out now (see in-page.js). */
async function layoutProblems(): Promise<string[]> {
  return await page.evaluate<string[]>('layoutProblems()')
}

/** Whether `text` is drawn whole inside the element (not elided, not past its edge). */
async function textInView(locator: Locator, text: string): Promise<boolean> {
  return await locator.evaluate((el, t) => (globalThis as unknown as { textInView: (el: unknown, text: string) => boolean }).textInView(el, t), text)
}

/** Starts the built `svc-mock` with these flags; resolves with its address once it listens. */
async function startCli(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--log', 'json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  cleanup.push(() => child.kill('SIGKILL'))
  const exited = new Promise<void>((done) => child.on('exit', () => done()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const read = (d: Buffer): void => {
      out += d.toString()
      const match = /"event":"listening".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)
      if (match?.[1]) resolve(match[1])
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`svc-mock exited with ${String(code)}:\n${out}`)))
  })
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

const LONG_QUERY = '?$select=name,type,state&$expandRelated=author,changedBy,createdBy,owner,relBy&$filter=StartsWith(name,%27Order%27)'

describe.skipIf(found.executablePath === undefined)('the dashboard in a real browser', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    server = await startServer({ port: 0, log: 'silent' })
    profile = mkdtempSync(join(tmpdir(), 'svc-mock-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1366, height: 900 },
      colorScheme: 'light',
      reducedMotion: 'reduce',
      acceptDownloads: true,
    })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await context.addInitScript({ path: fileURLToPath(new URL('./in-page.js', import.meta.url)) })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
    })
  })

  afterAll(async () => {
    await context?.close()
    await server?.close()
    for (const done of cleanup) done()
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  // The new pass, at each width ----------------------------------------------------------------------

  for (const width of WIDTHS) {
    describe(`the dashboard at ${width} px`, () => {
      let token = ''

      it('lays rows out without overlap, keeps the element id and webhook token in view, shows the full URL to copy', async () => {
        await server.emulator.reset()
        const created = (await (await postJson('/__svc-mock/webhooks', { name: 'invoices' })).json()) as { id: string }
        token = created.id
        const appKey = { authorization: 'AppKey svcmock-app-key' }
        expect((await send(VERSIONS(), { headers: appKey })).status).toBe(200)
        expect((await send(`${VERSIONS()}${LONG_QUERY}`, { headers: appKey })).status).toBe(200)
        expect((await postJson(`/hooks/${token}`, { invoiceId: 'I-1' })).status).toBe(200)
        expect((await postForm('/oauth2/token', { grant_type: 'client_credentials', scope: 'studio' }, { authorization: basic('ci-client', 'ci-secret') })).status).toBe(200)
        expect((await postForm('/oauth2/tokn', { grant_type: 'client_credentials' })).status).toBe(404)
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`${server.url}/__svc-mock/`)
        await page.locator('body[data-ready="true"]').waitFor()
        await page.locator('li.entry[data-route="unmatched"]').waitFor()

        // The tail of a long path is whole; only the head gives way.
        const plain = page.locator(`li.entry[data-route="versions.list"]:not(:has(.path[title*="?"])) .path .tail`)
        expect(await plain.innerText()).toBe(`/${SEED_ELEMENT}/versions`)
        expect(await textInView(plain, `/${SEED_ELEMENT}/versions`)).toBe(true)
        const hook = page.locator('li.entry[data-route="webhooks.receive"] .path .tail')
        expect(await hook.innerText()).toBe(`/${token}`)
        expect(await textInView(hook, `/${token}`)).toBe(true)
        // The element id stays in view even when a long query runs past the edge.
        const long = page.locator('li.entry[data-route="versions.list"]').filter({ has: page.locator('.path[title*="?"]') })
        expect(await textInView(long.locator('.path .tail'), SEED_ELEMENT)).toBe(true)

        // Open it: the whole URL, wrapped, ready to copy.
        await long.locator('summary').first().click()
        const url = `${server.url}${VERSIONS()}${LONG_QUERY}`
        expect(await long.locator('.full-url code').innerText()).toBe(url)
        await long.getByRole('button', { name: 'Copy URL' }).click()
        await announced('URL copied.')
        expect(await clipboard()).toBe(url)
        expect(await layoutProblems()).toEqual([])
        await long.locator('.request-line').scrollIntoViewIfNeeded()
        await shot('layout-long-path', width)
        await long.locator('summary').first().click()
      })

      it('says what wins for a webhook and a client a scenario overrides', async () => {
        expect((await postJson('/__svc-mock/scenarios/webhook-queue-full', { webhook: 'orders' })).status).toBe(200)
        expect((await postJson('/__svc-mock/scenarios/token-invalid-client', { client: 'ci-client', times: 3 })).status).toBe(200)

        await page.getByRole('tab', { name: 'Webhooks' }).click()
        const orders = page.locator('li.webhook[data-id="orders"]')
        await orders.locator('.wins.overridden').waitFor()
        expect(await orders.locator('.wins').innerText()).toBe('Flow active — inactive for calls, queue holds 0 while webhook-queue-full is on.')
        expect(await orders.locator('.pill').innerText()).toBe('Inactive for calls')
        expect(await orders.getByRole('switch', { name: 'Flow active (orders)' }).getAttribute('aria-checked')).toBe('true')
        expect(await page.locator('li.webhook[data-id="uploads"] .wins').innerText()).toBe('Flow active.')
        expect(await layoutProblems()).toEqual([])
        await orders.scrollIntoViewIfNeeded()
        await shot('wins-webhook', width)

        await page.getByRole('tab', { name: /OAuth/ }).click()
        const ci = page.locator('li.client[data-id="ci-client"]')
        expect(await ci.locator('.wins').innerText()).toBe('Credentials accepted — refused (401 invalid_client) while token-invalid-client is on.')
        expect(await page.locator('li.client[data-id="ci-post-client"] .wins').isHidden()).toBe(true)
        expect(await layoutProblems()).toEqual([])
        await ci.scrollIntoViewIfNeeded()
        await shot('wins-client', width)
      })

      it('lists what is on first, finds a scenario, gives the command line and header to copy, and saves the set as a file svc-mock loads', async () => {
        await page.getByRole('tab', { name: /Scenarios/ }).click()
        expect((await attributes(page.locator('li.scenario'), 'data-name')).slice(0, 2)).toEqual(['webhook-queue-full', 'token-invalid-client'])
        expect(await page.locator('li.scenario[data-name="token-invalid-client"] .activation').innerText()).toBe('On for the run (#2) · 3 requests left · client ci-client.')
        const cli = '--scenario webhook-queue-full:webhook=orders --scenario token-invalid-client:times=3,client=ci-client'
        expect(await page.getByRole('textbox', { name: 'Command line' }).innerText()).toBe(cli)
        expect(await page.getByRole('textbox', { name: 'Header, for one request' }).innerText()).toBe('x-svc-mock-scenario: webhook-queue-full:webhook=orders,token-invalid-client:client=ci-client')
        await page.getByRole('button', { name: 'Copy the command line' }).click()
        await announced('Command line copied.')
        expect(await clipboard()).toBe(cli)

        const all = server.emulator.scenarios.list().length
        await page.getByLabel('Find a scenario').fill('429')
        await page.getByText(`1 of ${all} scenarios`).waitFor()
        expect(await attributes(page.locator('li.scenario:not([hidden])'), 'data-name')).toEqual(['rate-limited'])
        await shot('scenarios-search', width)
        await page.getByLabel('Find a scenario').fill('')

        await page.getByLabel('Save as scenario file named').fill('qa-session')
        const { download, text } = await downloaded(() => page.getByRole('link', { name: 'Save scenario file' }).click())
        expect(download.suggestedFilename()).toBe('qa-session.json')
        const file = JSON.parse(text) as unknown
        expect(scenarioSchemas().ScenarioFileSchema.safeParse(file).success).toBe(true)
        expect(file).toMatchObject({ name: 'qa-session', parts: [{ from: 'webhook-queue-full', aim: { webhook: 'orders' } }, { from: 'token-invalid-client', aim: { client: 'ci-client' }, times: 3 }] })
        expect(await layoutProblems()).toEqual([])
        await page.locator('.on-now').scrollIntoViewIfNeeded()
        await shot('scenarios-on-now', width)

        // The file, in a folder, switched on by the real command: the same answers.
        const dir = mkdtempSync(join(tmpdir(), 'svc-mock-saved-'))
        cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
        await download.saveAs(join(dir, 'qa-session.json'))
        const copy = await startCli(['--scenarios', dir, '--scenario', 'qa-session'])
        try {
          const hook = await fetch(`${copy.url}/hooks/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1"}' })
          expect([hook.status, await hook.text()]).toEqual([400, 'Queue is full.'])
          const tokenOf = async (id: string, secret: string): Promise<number> =>
            (await fetch(`${copy.url}/oauth2/token`, { method: 'POST', headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).status
          expect([await tokenOf('ci-client', 'ci-secret'), await tokenOf('limited-client', 'limited-secret')]).toEqual([401, 200])
        } finally {
          await copy.stop()
        }
      })

      it('pauses and resumes the live journal, shows a near miss, copies a request as curl that curl replays, exports HAR and clears', async () => {
        await send('/__svc-mock/scenarios/webhook-queue-full', { method: 'DELETE' })
        await send('/__svc-mock/scenarios/token-invalid-client', { method: 'DELETE' })
        const rows = page.locator('li.entry')
        // Counted once the live view shows the newest entry the journal holds (earlier answers may still be on their way).
        const newest = ((await (await send('/__svc-mock/journal?limit=1')).json()) as Array<{ seq: number }>).at(-1)?.seq
        if (newest !== undefined) await page.locator(`li.entry[data-seq="${newest}"]`).waitFor({ state: 'attached' })
        const before = await rows.count()
        await page.getByRole('button', { name: 'Pause' }).click()
        await announced('Live view paused')
        await page.getByRole('button', { name: 'Resume' }).waitFor()
        expect((await postJson('/hooks/orders', { orderId: 'A-9' })).status).toBe(200)
        await page.getByText('Paused: 1 new request held.').waitFor()
        expect(await rows.count()).toBe(before)
        await shot('journal-paused', width)
        await page.getByRole('button', { name: 'Resume' }).click()
        await announced('Live view resumed: 1 held request shown.')
        expect(await rows.count()).toBe(before + 1)

        // The near miss of the request no route answered.
        const missed = page.locator('li.entry[data-route="unmatched"]')
        await missed.locator('summary').first().click()
        expect(await missed.locator('.near-miss').innerText()).toMatch(/No route matched\. Closest: POST \/oauth2\/token \(auth\.token\)\s+Path segment 2: sent tokn, the route expects token/)
        expect(await layoutProblems()).toEqual([])
        await missed.locator('.near-miss').scrollIntoViewIfNeeded()
        await shot('journal-near-miss', width)
        await missed.locator('summary').first().click()

        // Copy as curl: credentials as a placeholder, filled in and replayed by curl itself.
        const tokenRow = page.locator('li.entry[data-route="auth.token"]')
        await tokenRow.locator('summary').first().click()
        await tokenRow.getByRole('button', { name: 'Copy as curl' }).click()
        await announced('Curl command copied.')
        const command = await clipboard()
        expect(command).toContain(`curl -X POST ${server.url}/oauth2/token`)
        expect(command).toContain("-H 'authorization: Basic <base64 of client_id:client_secret>'")
        expect(command).toContain("--data-raw 'grant_type=client_credentials&scope=studio'")
        expect(command).not.toContain('[redacted]')
        await tokenRow.getByText('Show as curl').click()
        expect(await tokenRow.locator('.curl pre').innerText()).toBe(command)
        await tokenRow.locator('.curl').scrollIntoViewIfNeeded()
        await shot('journal-curl', width)
        const filled = command.replace('<base64 of client_id:client_secret>', Buffer.from('ci-client:ci-secret').toString('base64'))
        const { stdout } = await run('sh', ['-c', `${filled} -s -o /dev/null -w '%{http_code}'`])
        expect(stdout).toBe('200')
        await tokenRow.locator('summary').first().click()

        // Export as HAR 1.2, opened back.
        const { download, text } = await downloaded(() => page.getByRole('link', { name: 'Export HAR' }).click())
        expect(download.suggestedFilename()).toMatch(/^svc-mock-\d{8}-\d{6}\.har$/)
        const har = parseHar(text)
        const journal = server.emulator.journal.list()
        expect(har.log.entries.map((e) => e.request.url)).toEqual(journal.map((e) => `${e.origin}${e.path}`))
        const tokenEntry = har.log.entries.find((e) => e.request.url.endsWith('/oauth2/token'))
        expect(tokenEntry?.request.headers).toContainEqual({ name: 'authorization', value: 'Basic [redacted]' })
        expect(JSON.parse(tokenEntry?.response.content.text ?? '{}')).toMatchObject({ access_token: '[redacted]' })
        expect(text).not.toContain('ci-secret')
        for (const entry of har.log.entries) expect(entry.time).toBe(entry.timings.send + entry.timings.wait + entry.timings.receive)

        await page.getByRole('button', { name: 'Clear' }).click()
        await announced('Journal cleared.')
        await page.getByText('No requests yet. Send one to the emulator and it appears here at once.').waitFor()
        expect(await rows.count()).toBe(0)
        expect(server.emulator.journal.list()).toEqual([])
      })

      it('approves one device login as bob and denies another, through the control plane', async () => {
        const created = (await (await postJson('/__svc-mock/oauth-clients', { name: 'Smart TV', grantType: 'device_code', authMethod: 'none', scopes: ['studio', 'audit.log:read'], consent: 'page' })).json()) as { clientId: string }
        const start = async (): Promise<{ device_code: string; user_code: string }> =>
          (await (await postForm('/oauth2/device_authorization', { client_id: created.clientId, scope: 'studio' })).json()) as { device_code: string; user_code: string }
        const poll = async (deviceCode: string): Promise<{ status: number; body: Record<string, unknown> }> => {
          const answer = await postForm('/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: created.clientId })
          return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
        }
        const first = await start()
        const second = await start()

        await page.getByRole('tab', { name: /OAuth/ }).click()
        await page.getByRole('tab', { name: 'OAuth 2 waiting' }).waitFor()
        const card = page.locator(`li.device[data-user-code="${first.user_code}"]`)
        expect(await card.innerText()).toMatch(new RegExp(`${first.user_code}[\\s\\S]*Smart TV \\(${created.clientId}\\)[\\s\\S]*studio`))
        expect(await layoutProblems()).toEqual([])
        await card.scrollIntoViewIfNeeded()
        await shot('device-waiting', width)

        await card.getByLabel('Approve as').selectOption('bob')
        await card.getByRole('button', { name: `Approve ${first.user_code}` }).click()
        await announced(`Device login ${first.user_code} approved as bob.`)
        await card.waitFor({ state: 'detached' })
        const approved = await poll(first.device_code)
        expect(approved.status).toBe(200)
        expect(server.emulator.oauth.consents.list('bob').map((c) => c.clientId)).toContain(created.clientId)

        await page.getByRole('button', { name: `Deny ${second.user_code}` }).click()
        await announced(`Device login ${second.user_code} denied.`)
        await page.getByText('None. With --consent page').waitFor()
        expect(await poll(second.device_code)).toMatchObject({ status: 400, body: { error: 'access_denied' } })
      })
    })
  }

  describe('the dashboard at every width', () => {
    it('overlaps nothing from 360 px to 1920 px, on each tab, with a long request open', async () => {
      await openAt(1366)
      server.emulator.scenarios.use('webhook-queue-full', { webhook: 'orders' })
      server.emulator.scenarios.use('token-invalid-client', { client: 'ci-client' })
      await send(`${VERSIONS()}${LONG_QUERY}`, { headers: { authorization: 'AppKey svcmock-app-key' } })
      await postForm('/oauth2/tokn', { grant_type: 'client_credentials' })
      const long = page.locator('li.entry[data-route="versions.list"]')
      await long.locator('summary').first().click()
      await page.locator('li.entry[data-route="unmatched"] summary').first().click()
      for (const w of [360, 400, 480, 560, 768, 960, 1024, 1280, 1366, 1600, 1920]) {
        await page.setViewportSize({ width: w, height: 900 })
        for (const tab of [/Scenarios/, /Webhooks/, /OAuth/]) {
          await page.getByRole('tab', { name: tab }).click()
          expect(await layoutProblems(), `${w} px, ${String(tab)}`).toEqual([])
        }
      }
      await page.setViewportSize({ width: 1366, height: 900 })
      await page.getByRole('tab', { name: /Scenarios/ }).click()
      await shot('overview', 1366)
    })
  })

  describe('the dashboard at desktop sizes', () => {
    it('is one screen at 1280x900 and 1920x1080, on each tab, with a long journal: only its panels scroll', async () => {
      await openAt(1280)
      for (let i = 0; i < 40; i++) await send(VERSIONS('no-such-element'), { headers: { authorization: 'AppKey svcmock-app-key' } })
      await page.locator('li.entry').nth(39).waitFor({ state: 'attached' })
      const measure = (): Promise<{ page: number; pageWidth: number; journal: number; journalShown: number; journalScrolled: number; scrolled: number }> => page.evaluate('pageExtent()')
      for (const [width, height] of [[1280, 900], [1920, 1080]] as const) {
        await page.setViewportSize({ width, height })
        for (const tab of [/Scenarios/, /Webhooks/, /OAuth/]) {
          await page.getByRole('tab', { name: tab }).click()
          const seen = await measure()
          expect(seen.page, `${width}x${height}, ${String(tab)}: the page's height`).toBe(height)
          expect(seen.pageWidth, `${width}x${height}, ${String(tab)}: the page's width`).toBe(width)
          expect(seen.journal, 'the journal scrolls inside its panel').toBeGreaterThan(seen.journalShown)
        }
        // A wheel turn over the journal scrolls the journal, never the page into blank space.
        await page.locator('#journal-list').hover()
        await page.mouse.wheel(0, 3000)
        // A function, not a string: the dashboard's CSP (script-src 'self') refuses a string's eval in some Chromium builds.
        await page.waitForFunction(() => (globalThis as unknown as { pageExtent: () => { journalScrolled: number } }).pageExtent().journalScrolled > 0)
        expect((await measure()).scrolled).toBe(0)
      }
      await page.setViewportSize({ width: 1366, height: 900 })
    })
  })

  // What the page has always steered ---------------------------------------------------------------

  describe('steering from the dashboard', () => {
    it('switches webhook-queue-full on by clicking, and shows the refused webhook call (400) in the journal at once', async () => {
      await openAt(1280)
      await send(VERSIONS(), { headers: { authorization: 'AppKey svcmock-app-key' } })
      await postForm('/oauth2/token', { grant_type: 'client_credentials', scope: 'studio' }, { authorization: basic('ci-client', 'ci-secret') })
      expect((await postJson('/hooks/orders', { orderId: 'A-1', amount: '12.50' })).status).toBe(200)
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
      const summary = row.locator('summary').first()
      expect(await summary.innerText()).toMatch(/400[\s\S]*POST[\s\S]*\/hooks\/orders[\s\S]*webhooks\.receive[\s\S]*webhook-queue-full/)

      // Expand it with the keyboard: its headers and body, the scenario that shaped it.
      await summary.focus()
      await page.keyboard.press('Enter')
      const body = row.locator('.entry-body')
      await body.getByText('Queue is full.').waitFor()
      expect(await body.locator('.facts').innerText()).toContain('webhook-queue-full')
      await shot('steering-journal', 1280)
    })

    it('filters the journal by route and status', async () => {
      const rows = page.locator('li.entry:not([hidden])')
      await page.getByLabel('Status').selectOption({ label: '4xx client error' })
      expect(await attributes(rows, 'data-status')).toEqual(['400'])
      await page.getByLabel('Status').selectOption('')
      await page.getByLabel('Route').selectOption('auth.token')
      expect(await attributes(rows, 'data-route')).toEqual(['auth.token'])
      // Its credentials and the token it answered are redacted, as in every journal entry.
      const tokenRow = rows.first()
      await tokenRow.locator('summary').first().click()
      await tokenRow.getByText('Basic [redacted]').waitFor()
      expect(await tokenRow.locator('section[aria-label="Response"] pre.body').innerText()).toContain('"access_token": "[redacted]"')
      expect(await page.content()).not.toContain('ci-secret')
      await tokenRow.locator('summary').first().click()
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
      expect(await card.locator('.wins').innerText()).toContain('webhook-queue-full')
      expect(await card.locator('.pill').first().innerText()).toBe('Inactive for calls')

      const active = page.getByRole('switch', { name: 'Flow active (orders)' })
      await active.click()
      await card.locator('.switch[aria-checked="false"]').waitFor()
      await announced('Flow of orders deactivated.')
      expect(server.emulator.webhooks.get('orders').flow.active).toBe(false)
      await card.getByText('Flow inactive — queue holds 0 while').waitFor()
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
      await item.locator('.activation').getByText('On for the run (#1) · 5 requests left · webhook uploads · capacity=2.').waitFor()
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
      await page.getByRole('tab', { name: /OAuth/ }).click()
      await page.getByRole('button', { name: 'Regenerate secret of ci-client' }).click()
      const confirm = page.getByRole('dialog', { name: 'Regenerate the secret of ci-client?' })
      await confirm.getByRole('button', { name: 'Regenerate' }).click()
      const shown = page.getByRole('dialog', { name: 'New client secret' })
      await shown.waitFor()
      const secret = await shown.getByLabel('Client secret').inputValue()
      expect(secret).toMatch(/^\S{20,}$/)
      const token = await postForm('/oauth2/token', { grant_type: 'client_credentials' }, { authorization: basic('ci-client', secret) })
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

    it('resets after asking (to the fixtures, or to the state loaded last)', async () => {
      await page.getByRole('button', { name: 'Reset', exact: true }).click()
      const dialog = page.getByRole('dialog', { name: 'Reset the emulator?' })
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(server.emulator.scenarios.list().some((s) => s.active)).toBe(true)

      await page.getByRole('button', { name: 'Reset', exact: true }).click()
      await dialog.getByRole('button', { name: 'Reset' }).click()
      // The journal starts over: only the reset itself, a control-plane call the default filter hides.
      await page.getByText('No requests yet apart from control-plane calls').waitFor()
      expect(await attributes(page.locator('li.entry'), 'data-route')).toEqual(['control.reset'])
      await page.getByRole('tab', { name: /Scenarios/ }).click()
      await page.locator('li.scenario[data-name="webhook-queue-full"] .switch[aria-checked="false"]').waitFor()
      expect(server.emulator.webhooks.get('orders').flow.outcome).toBe('succeed')
    })

    it('saves the state as a file and loads it back after asking: the page shows what the file held, and a reset returns to it', async () => {
      await postJson('/__svc-mock/oauth-clients', { clientId: 'saved-client', name: 'Saved client', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
      await send('/__svc-mock/scenarios/webhook-queue-full', { method: 'POST' })
      await page.getByRole('tab', { name: /OAuth/ }).click()
      await page.getByText('Saved client').first().waitFor()
      const { download, text } = await downloaded(() => page.getByRole('link', { name: 'Save state' }).click())
      expect(download.suggestedFilename()).toMatch(/^svc-mock-state-\d{8}-\d{6}\.json$/)
      const saved = JSON.parse(text) as { svcMockState: number; auth: { oauthClients: { added: Array<{ clientId: string }> } } }
      expect(saved.svcMockState).toBe(1)
      expect(saved.auth.oauthClients.added.map((c) => c.clientId)).toEqual(['saved-client'])

      await server.emulator.reset()
      await page.getByText('Saved client').first().waitFor({ state: 'detached' })
      const file = join(profile, 'saved-state.json')
      writeFileSync(file, text)
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Load state' }).click()])
      await chooser.setFiles(file)
      const dialog = page.getByRole('dialog', { name: 'Load the state saved in saved-state.json?' })
      await dialog.getByRole('button', { name: 'Load' }).click()
      await announced('State loaded from saved-state.json.')
      await page.getByText('Saved client').first().waitFor()
      expect(server.emulator.oauth.clients.get('saved-client')?.name).toBe('Saved client')
      await page.getByRole('tab', { name: /Scenarios/ }).click()
      await page.locator('li.scenario[data-name="webhook-queue-full"] .switch[aria-checked="true"]').waitFor()
      await shot('state-loaded', 1366)
      await server.emulator.reset()
      expect(server.emulator.oauth.clients.get('saved-client')?.name).toBe('Saved client')

      // A file that is not a saved state is refused, and changes nothing.
      writeFileSync(file, '{"svcMockState": 1, "colour": "blue"}')
      const [again] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Load state' }).click()])
      await again.setFiles(file)
      await dialog.getByRole('button', { name: 'Load' }).click()
      await page.locator('#error-toast').filter({ hasText: 'Invalid saved state: the document: unknown member "colour"' }).waitFor()
      expect(server.emulator.oauth.clients.get('saved-client')?.name).toBe('Saved client')
      await page.locator('#error-toast').click()
      // The browser logs the refusal it was meant to meet; nothing else.
      const refusal = problems.indexOf('console error: Failed to load resource: the server responded with a status of 400 (Bad Request)')
      expect(refusal).toBeGreaterThanOrEqual(0)
      problems.splice(refusal, 1)
    })

    it('logged no error or warning in the browser', () => {
      expect(problems).toEqual([])
    })
  })
})
