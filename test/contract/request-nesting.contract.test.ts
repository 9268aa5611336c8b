/**
 * One nesting limit for structured input: over 256 levels is a 400 naming the limit, on every
 * surface (a `$filter`, a webhook's JSON body, a learning webhook's sample, control-plane
 * bodies), and nothing from the refused request is stored: the emulator keeps answering as
 * before.
 */
import { expect, it } from 'vitest'
import type { JsonValue } from '../../src/index.js'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'

const deepArray = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`
const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`

contract(
  'structured input nested deeper than 256 levels',
  (h) => {
    it('a $filter of 3,000 nested parentheses: 400 in the operation\'s error body, naming the limit', async () => {
      const filter = `${'('.repeat(3000)}name -eq 'x'${')'.repeat(3000)}`
      const response = await h.fetch(`${VERSIONS()}?$filter=${encodeURIComponent(filter)}`, { headers: APP_KEY })
      expect(response.status).toBe(400)
      const body = (await response.json()) as { data: Array<{ error: string }>; type: string }
      expect(body.type).toBe('Error')
      expect(body.data[0]?.error).toMatch(/deeper than 256 levels \(the limit\)/)
    })

    it('a JSON body 5,000 levels deep to a webhook: 400 naming the limit; the flow received nothing', async () => {
      const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"orderId":"A-1","deep":${deepArray(5000)}}` })
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/deeper than 256 levels \(the limit\)/)
      await h.emu.clock.settle()
      expect(h.emu.webhooks.executions('orders')).toEqual([])
    })

    it('a 500-level sample to a learning webhook is refused and not learnt: the next good call teaches the structure', async () => {
      const refused = await h.fetch('/hooks/learning', { method: 'POST', headers: { 'content-type': 'application/json' }, body: deepObject(500) })
      expect(refused.status).toBe(400)
      expect(h.emu.webhooks.get('learning')).toMatchObject({ learning: true, dataStructure: null })
      const sample = await h.fetch('/hooks/learning', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1","lines":[{"sku":"x"}]}' })
      expect(sample.status).toBe(200)
      expect(h.emu.webhooks.get('learning').learning).toBe(false)
      const next = await h.fetch('/hooks/learning', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-2","lines":[]}' })
      expect(next.status).toBe(200)
    })

    it('a control-plane webhook whose response body nests 5,000 levels: 400 naming the limit; no webhook is created', async () => {
      const before = h.emu.webhooks.list().length
      const response = await h.fetch('/__svc-mock/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"name":"deep","flow":{"response":{"status":200,"body":${deepArray(5000)}}}}`,
      })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(/deeper than 256 levels \(the limit\)/)
      expect(h.emu.webhooks.list()).toHaveLength(before)
    })

    it('an element whose attribute nests 5,000 levels: 400; the store is unchanged', async () => {
      const before = h.emu.elements.list().length
      const response = await h.fetch('/__svc-mock/elements', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"storage":"acme-collection/acme-tenant","facet":"processes","type":"process","versions":[{"state":"released","attributes":{"name":{"127":${deepArray(5000)}}}}]}`,
      })
      expect(response.status).toBe(400)
      expect(h.emu.elements.list()).toHaveLength(before)
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
    })

    it('in-process, a deep object given to emu.webhooks.create is refused the same way', async () => {
      let deep: JsonValue = 1
      for (let i = 0; i < 5000; i++) deep = [deep]
      await expect(h.emu.webhooks.create({ name: 'deep', flow: { response: { status: 200, body: deep } } })).rejects.toMatchObject({
        code: 'ERR_CONTROL_BODY',
        message: expect.stringMatching(/deeper than 256 levels/),
      })
    })
  },
  { clock: 'manual' },
)
