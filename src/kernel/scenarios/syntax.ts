/**
 * The text form of scenario activations, shared by `--scenario`, `SVC_MOCK_SCENARIOS` and the
 * `x-svc-mock-scenario` header:
 *
 *   name[:key=value[,key=value]…][,name…]
 *
 * e.g. `latency:ms=2000`, `flaky:rate=0.5,seed=7,times=3`, `webhook-queue-full:webhook=orders,latency`.
 * `times`, `route` and the target names the domains declare (`webhook`, `client`) set the
 * activation; every other key is a parameter. A comma-separated item without `=` starts the next
 * scenario.
 */
import { ScenarioError } from '../errors.js'
import { type Activation, SCENARIO_NAME } from './schema.js'

export interface ParsedActivation {
  name: string
  activation: Activation
}

export function parseActivations(text: string, source: string, targets: ReadonlySet<string>): ParsedActivation[] {
  const out: ParsedActivation[] = []
  for (const raw of text.split(',')) {
    const item = raw.trim()
    if (item === '') continue
    const colon = item.indexOf(':')
    const eq = item.indexOf('=')
    if (eq === -1 || (colon !== -1 && colon < eq)) {
      const name = colon === -1 ? item : item.slice(0, colon)
      if (!SCENARIO_NAME.test(name)) throw new ScenarioError(source, '', `"${name}" is not a scenario name`)
      out.push({ name, activation: {} })
      if (colon !== -1) addSetting(out, item.slice(colon + 1), source, targets)
    } else {
      addSetting(out, item, source, targets)
    }
  }
  return out
}

function addSetting(out: ParsedActivation[], pair: string, source: string, targets: ReadonlySet<string>): void {
  const current = out[out.length - 1]
  if (!current) throw new ScenarioError(source, '', `"${pair}" comes before any scenario name`)
  const eq = pair.indexOf('=')
  if (eq <= 0) throw new ScenarioError(source, current.name, `"${pair}" is not key=value`)
  const key = pair.slice(0, eq).trim()
  const value = pair.slice(eq + 1).trim()
  if (key === 'times') {
    const times = Number(value)
    if (!Number.isInteger(times) || times < 1) {
      throw new ScenarioError(source, `${current.name}.times`, `must be a whole number >= 1, got "${value}"`)
    }
    current.activation.times = times
  } else if (key === 'route') {
    current.activation.route = value
  } else if (targets.has(key)) {
    current.activation.targets = { ...current.activation.targets, [key]: value }
  } else {
    current.activation.params = { ...current.activation.params, [key]: value }
  }
}
