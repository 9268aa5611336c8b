// bench/compare.js's command line: the sections to run, the settings of each (full and --quick),
// and the bars every row is checked against (product.md's quality bars and issue 11's).
import { parseArgs } from 'node:util'

export const SECTIONS = ['vitest', 'fresh', 'inproc', 'coldstart', 'versions', 'webhook', 'token', 'memory']
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '20' },
    'cold-runs': { type: 'string' },
    'vitest-rounds': { type: 'string' },
    'fresh-rounds': { type: 'string' },
    'inproc-seconds': { type: 'string' },
    'memory-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (args.help) {
  console.log(`node bench/compare.js [--quick] [--only ${SECTIONS.join(',')}] [--rounds N] [--duration S] [--warmup S]
  [--connections 20] [--cold-runs N] [--vitest-rounds N] [--fresh-rounds N] [--inproc-seconds S] [--memory-seconds S]
("cpu" in --only means versions,webhook: row 8 comes from their runs.) See bench/README.md.`)
  process.exit(0)
}
export const only = (args.only ?? SECTIONS.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .flatMap((s) => (s === 'cpu' ? ['versions', 'webhook'] : [s]))
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`--only: unknown section "${s}" (sections: ${SECTIONS.join(', ')}, or cpu)`)
    process.exit(2)
  }
}
const num = (name, full, quick) => Number(args[name] ?? (args.quick ? quick : full))
export const S = {
  quick: args.quick,
  rounds: num('rounds', 3, 2),
  duration: num('duration', 5, 1.5),
  warmup: num('warmup', 2, 0.5),
  jvmWarmupFactor: 3,
  connections: num('connections', 20, 20),
  coldRuns: num('cold-runs', 7, 2),
  // Row 1 subtracts vitest's own cost from runs of ~4 s: one noisy run moves a round's ratio by
  // 0.2-0.5, so it takes more rounds than the others to give a median worth reading.
  vitestRounds: num('vitest-rounds', 8, 1),
  freshRounds: num('fresh-rounds', 10, 3),
  inprocSeconds: num('inproc-seconds', 2, 0.5),
  memorySeconds: num('memory-seconds', 30, 8),
  maxRequests: 2_000_000,
}
S.inprocRounds = S.rounds
S.memoryWarmupSeconds = Math.min(10, Math.round(S.memorySeconds / 3))

// The bars: product.md's quality bars (raised for issues 23-27: every surface at least half a bare
// server's requests/s, tokens against a bare server that signs the same claims, cold start within
// 2x bare on Node.js 22+ and 2.5x on Node.js 20), and issue 11's against the peers.
export const BARS = {
  vitestPerFile: 1,
  fresh: 1,
  mswVsHand: 1,
  coldVsBare: Number(process.versions.node.split('.')[0]) >= 22 ? 2 : 2.5,
  coldVsOauth2MockServer: 1,
  versionsVsBare: 0.5,
  // Webhooks against a bare server doing the same work (servers/bare-webhook.js: read, parse,
  // check the required field, keep the call), product.md's floor; the same-bytes ratio is shown beside it.
  webhookVsReceiver: 0.5,
  tokenVsFloor: 0.5,
  webhookVsWiremock: 2,
  aheadOfPeer: 1,
  p99VsBare: 5,
  tokenVsOauth2MockServer: 2.5,
  rssIdleMB: 70,
  rssGrowthAfterWarmupMB: 30,
}
