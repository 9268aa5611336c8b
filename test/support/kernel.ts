/**
 * The smallest setup `createKernel()` takes, for the kernel's own tests: a manual clock, a silent
 * logger, no fixtures, settings or scenarios unless a test gives them, and the domains it names.
 */
import { Clock } from '../../src/kernel/clock.js'
import type { DomainModule } from '../../src/kernel/domain.js'
import type { Addresses } from '../../src/kernel/kernel-api.js'
import type { KernelSetup } from '../../src/kernel/kernel.js'
import { createLogger } from '../../src/kernel/logger.js'

export function kernelSetup<Urls extends Addresses>(
  urls: Urls,
  domains: readonly DomainModule<string, object>[],
  more: Partial<Omit<KernelSetup<object, Urls>, 'urls' | 'domains'>> = {},
): KernelSetup<object, Urls> {
  return {
    urls,
    seed: 1,
    clock: new Clock({ mode: 'manual' }),
    logger: createLogger('silent', () => undefined, () => undefined),
    journalSize: 10,
    product: { name: 'test', version: '0' },
    domains,
    settingsSections: [],
    options: {},
    fixtures: [],
    scenarios: [],
    routeList: 'GET /routes',
    document: async () => ({}),
    ...more,
  }
}
