// A walk through everything the default fixtures give, and a few writes that take new ids, as
// plain data: test/unit/defaults-snapshot.test.ts runs it on the sources and on a copy of the built
// package (which starts from the build's snapshot) and expects the same answers.
// Plain JavaScript so that a child `node` can run it against the bundle with no TypeScript loader.

const APP_KEY = { authorization: 'AppKey svcmock-app-key' }

/**
 * @param {(options: { clock: { mode: 'manual', start: string }, seed?: number }) => Promise<any>} createEmulator
 * @param {{ seed?: number }} [options]
 */
export async function walkDefaults(createEmulator, options = {}) {
  const emu = await createEmulator({ clock: { mode: 'manual', start: '2026-01-01T00:00:00Z' }, ...options })
  const base = emu.urls.base
  const call = async (method, path, body, headers = {}) => {
    const init = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
    if (body !== undefined) init.body = JSON.stringify(body)
    const response = await emu.handle(new Request(`${base}${path}`, init))
    return { status: response.status, body: await response.text() }
  }
  try {
    const out = {}
    const elements = JSON.parse((await call('GET', '/__svc-mock/elements')).body)
    out.elements = elements
    out.versions = {}
    for (const element of elements) {
      const path = `/${element.storage}/_api/rest/facets/${element.facet}/views/default/elements/${element.id}/versions`
      out.versions[element.id] = await call('GET', path, undefined, APP_KEY)
    }
    out.state = emu.state()
    const first = elements[0]
    out.addVersion = await call('POST', `/__svc-mock/elements/${first.id}/versions`, { state: 'inProcess' })
    out.addElement = await call('POST', '/__svc-mock/elements', { storage: first.storage, facet: first.facet, type: 'mainProcess', versions: [{ state: 'released' }] })
    const webhooks = JSON.parse((await call('GET', '/__svc-mock/webhooks')).body)
    out.webhook = await call('POST', new URL(webhooks[0].url).pathname, { orderId: 'A-1' })
    await emu.clock.advance(1000)
    out.executions = (await call('GET', `/__svc-mock/webhooks/${webhooks[0].id}/executions`)).body
    return out
  } finally {
    await emu.close()
  }
}
