/**
 * Webhook fixtures: your own webhooks next to (or instead of) the defaults, and fixture mistakes
 * reported with the file, the path inside it and the rule, before anything starts.
 */
import { describe, expect, it } from 'vitest'
import { FixtureError } from '../../src/kernel/errors.js'
import { createEmulator, type InlineFixtures } from '../../src/index.js'

describe('webhook fixtures', () => {
  it('adds webhooks from your fixtures; a default one with the same id is replaced', async () => {
    const emu = await createEmulator({
      clock: 'manual',
      fixtures: { webhooks: [{ name: 'Shop orders', id: 'shop', flow: { active: false } }, { name: 'orders', secured: true }] },
    })
    expect(emu.webhooks.get('shop')).toMatchObject({ name: 'Shop orders', url: 'https://acme.svc-mock.test/hooks/shop', flow: { active: false, queueCapacity: 10_000 } })
    expect(emu.webhooks.get('orders')).toMatchObject({ secured: true, dataStructure: null })
    await emu.close()
  })

  it('takes the default queue capacity from the settings', async () => {
    const emu = await createEmulator({ clock: 'manual', settings: { webhooks: { queueCapacity: 50 } } })
    expect(emu.webhooks.get('orders').queue.capacity).toBe(50)
    expect(emu.webhooks.get('paused').queue.capacity).toBe(3)
    await emu.close()
  })

  it('serves webhooks on their own origin when webhookUrl is given', async () => {
    const emu = await createEmulator({ clock: 'manual', webhookUrl: 'https://hooks.acme.test' })
    expect(emu.webhooks.get('orders').url).toBe('https://hooks.acme.test/hooks/orders')
    const answer = await emu.handle(new Request('https://hooks.acme.test/hooks/orders?orderId=1'))
    expect([answer.status, await answer.text()]).toEqual([200, 'Accepted'])
    await emu.close()
  })

  it.each([
    [{ webhooks: [{ name: 'has spaces' }] }, 'webhooks[0].id', /id usable in its address/],
    [{ webhooks: [{ name: 'x', dataStructure: [{ name: 'a', type: 'decimal' }] }] }, 'webhooks[0].dataStructure[0].type', /Invalid option/],
    [{ webhooks: [{ name: 'x', dataStructure: [{ name: 'a', type: 'text', spec: [] }] }] }, 'webhooks[0].dataStructure[0].spec', /has no spec/],
    [{ webhooks: [{ name: 'x', flow: { outcome: 'explode' } }] }, 'webhooks[0].flow.outcome', /Invalid option/],
  ])('refuses %j naming the path', async (fixtures, path, rule) => {
    // Bad on purpose, so not of the fixture type: the run-time check is what is tested.
    const error = await createEmulator({ fixtures: fixtures as InlineFixtures }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FixtureError)
    expect((error as FixtureError).path).toBe(path)
    expect((error as FixtureError).rule).toMatch(rule)
  })

  it('refuses settings that do not fit the webhooks section', async () => {
    await expect(createEmulator({ settings: { webhooks: { responseTimeoutMs: -1 } } })).rejects.toThrow(/settings\.webhooks\.responseTimeoutMs/)
  })
})
