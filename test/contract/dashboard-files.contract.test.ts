/**
 * The dashboard's files, on both transports: the page at `/__svc-mock/`, the modules, styles and
 * icon it loads from `/__svc-mock/dashboard/`, all from the emulator's own origin (no CDN: it
 * works offline), with their content types, revalidation (ETag, no-cache, 304) and a content
 * security policy; none of it journaled.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'

const PAGE = '/__svc-mock/'

/** Every address an HTML or JS file of the page refers to: src/href attributes and module imports. */
function references(text: string): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(/\s(?:src|href)="([^"#]+)"/g)) if (match[1]) found.add(match[1])
  for (const match of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s+'([^']+)'/g)) {
    const target = match[1] ?? match[2]
    if (target) found.add(target)
  }
  return [...found]
}

contract('dashboard files', (h) => {
  it('serves the page at /__svc-mock/ as HTML, with a content security policy that allows its own origin only', async () => {
    const response = await h.fetch(PAGE)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("connect-src 'self'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await response.text()
    expect(html).toMatch(/^<!doctype html>/i)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<main')
  })

  it('redirects /__svc-mock to /__svc-mock/, keeping the query', async () => {
    const response = await h.fetch('/__svc-mock?x=1', { redirect: 'manual' })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('/__svc-mock/?x=1')
  })

  it('serves every file the page loads, from its own origin, each with its content type', async () => {
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      svg: 'image/svg+xml',
    }
    const pending = [new URL(PAGE, h.origin).href]
    const loaded = new Set<string>()
    while (pending.length > 0) {
      const address = pending.pop() ?? ''
      if (loaded.has(address)) continue
      loaded.add(address)
      const response = await h.fetch(address)
      expect(response.status, address).toBe(200)
      const text = await response.text()
      const extension = new URL(address).pathname.split('.').at(-1) ?? ''
      if (extension in types) expect(response.headers.get('content-type'), address).toBe(types[extension])
      if (extension === 'svg') continue
      for (const target of references(text)) {
        // No CDN, no other origin: the page works offline.
        expect(target, `${address} refers to ${target}`).not.toMatch(/^(?:[a-z]+:)?\/\//i)
        pending.push(new URL(target, address).href)
      }
    }
    const files = [...loaded].map((address) => new URL(address).pathname).sort()
    expect(files).toEqual(
      expect.arrayContaining(['/__svc-mock/', '/__svc-mock/dashboard/app.js', '/__svc-mock/dashboard/dashboard.css', '/__svc-mock/dashboard/icon.svg']),
    )
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(1)
  })

  it('lets a browser revalidate: an ETag, Cache-Control no-cache, and 304 while the file is unchanged', async () => {
    for (const path of [PAGE, '/__svc-mock/dashboard/app.js', '/__svc-mock/dashboard/dashboard.css']) {
      const first = await h.fetch(path)
      const etag = first.headers.get('etag')
      expect(etag, path).toMatch(/^"[\w-]+"$/)
      expect(first.headers.get('cache-control'), path).toBe('no-cache')
      await first.arrayBuffer()
      const again = await h.fetch(path, { headers: { 'if-none-match': etag ?? '' } })
      expect(again.status, path).toBe(304)
      expect(again.headers.get('etag'), path).toBe(etag)
      expect(await again.text(), path).toBe('')
      const changed = await h.fetch(path, { headers: { 'if-none-match': '"something-else"' } })
      expect(changed.status, path).toBe(200)
      await changed.arrayBuffer()
    }
  })

  it('answers HEAD for the page with its head only', async () => {
    const response = await h.fetch(PAGE, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await response.text()).toBe('')
  })

  it('answers 404 for a file the dashboard does not have, however its name is written', async () => {
    for (const name of ['nope.js', '..%2F..%2Fpackage.json', '%2E%2E%2Fpackage.json', 'tsconfig.json', 'index.html', 'APP.JS', 'app.ts']) {
      const response = await h.fetch(`/__svc-mock/dashboard/${name}`)
      expect(response.status, name).toBe(404)
      expect(((await response.json()) as { error: string }).error, name).toContain('The dashboard has no file')
    }
  })

  it('is not journaled: opening the page is not a request under test', async () => {
    await (await h.fetch(PAGE)).text()
    await (await h.fetch('/__svc-mock/dashboard/app.js')).text()
    await (await h.fetch('/__svc-mock', { redirect: 'manual' })).text()
    expect(h.emu.journal.list().filter((e) => e.route.startsWith('control.dashboard'))).toEqual([])
  })

  it('lists its routes among the routes the emulator serves', async () => {
    const { body } = await h.control<Array<{ id: string; path: string }>>('GET', '/routes')
    expect(body.filter((r) => r.id.startsWith('control.dashboard')).map((r) => r.path).sort()).toEqual([
      '/__svc-mock',
      '/__svc-mock/',
      '/__svc-mock/dashboard/:file',
    ])
  })
})
