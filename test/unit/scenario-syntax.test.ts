/** The text form of activations, shared by --scenario, SVC_MOCK_SCENARIOS and the header. */
import { describe, expect, it } from 'vitest'
import { parseActivations } from '../../src/kernel/scenarios/syntax.js'

/** The target names the domains declare. */
const TARGETS = new Set(['webhook', 'client'])

describe('parseActivations', () => {
  it.each([
    ['latency', [{ name: 'latency', activation: {} }]],
    ['latency:ms=2000', [{ name: 'latency', activation: { params: { ms: '2000' } } }]],
    ['latency:ms=500,times=3', [{ name: 'latency', activation: { params: { ms: '500' }, times: 3 } }]],
    [
      'webhook-queue-full:webhook=orders,latency:ms=10',
      [
        { name: 'webhook-queue-full', activation: { targets: { webhook: 'orders' } } },
        { name: 'latency', activation: { params: { ms: '10' } } },
      ],
    ],
    [
      ' a , b ',
      [
        { name: 'a', activation: {} },
        { name: 'b', activation: {} },
      ],
    ],
  ])('%s', (text, expected) => {
    expect(parseActivations(text, 'test', TARGETS)).toEqual(expected)
  })

  it('a key that is no target the domains declare is a parameter', () => {
    expect(parseActivations('latency:client=ci', 'test', new Set(['webhook']))).toEqual([{ name: 'latency', activation: { params: { client: 'ci' } } }])
  })

  it.each([
    ['ms=5', /comes before any scenario name/],
    ['latency:times=0', /times: must be a whole number >= 1/],
    ['Latency', /"Latency" is not a scenario name/],
    ['latency:=5', /is not key=value/],
  ])('refuses %s', (text, message) => {
    expect(() => parseActivations(text, 'test', TARGETS)).toThrow(message)
  })
})
