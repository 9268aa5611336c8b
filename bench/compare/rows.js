// The final table of bench/compare.js: one row per measure, svc-mock's figure beside the reference's
// from the same run, the median of per-round ratios, the bar and the verdict.
import { fmt } from '../lib/stats.js'
import { roundRatio } from './socket.js'

export const ms = (v) => (Number.isFinite(v) ? `${fmt(v, v < 10 ? 2 : 0)} ms` : '-')
export const us = (v) => (Number.isFinite(v) ? `${fmt(v, 0)} µs` : '-')
export const rps = (v) => (Number.isFinite(v) ? `${fmt(v / 1000, v < 10_000 ? 2 : 1)}k/s` : '-')
export const MB = (v) => (Number.isFinite(v) ? `${fmt(v, 0)} MB` : '-')
export const x = (v) => (Number.isFinite(v) ? `${fmt(v, 2)}×` : '-')

export function buildRows({ report, only, BARS, peerErrors }) {
  const sec = report.sections
  const failed = (name) => report.notRun[name]
  /** One row of the final table. `ok`: true/false against the bar, or undefined for information. */
  const row = (n, measure, svc, reference, ratio, bar, ok) => {
    report.rows.push({ n, measure, svc, reference, ratio, bar, verdict: ok === undefined ? 'info' : ok ? 'ok' : 'MISSED' })
  }
  const notRun = (n, measure, why) => report.rows.push({ n, measure, svc: '-', reference: '-', ratio: '-', bar: '-', verdict: `not run: ${why}` })
  // 1
  if (sec.vitest && !failed('vitest')) {
    const r = sec.vitest
    row(1, '10 vitest files through msw: extra wall time per file', ms(r.emuPerFileMs), `hand-written msw ${ms(r.handPerFileMs)} (above ${ms(r.baseMs / 10)}/file of vitest alone)`, x(r.perFileRatio), `≤ ${BARS.vitestPerFile}×`, r.perFileRatio <= BARS.vitestPerFile)
    row(1, '10 vitest files: whole `vitest run`, spawn to exit', ms(r.emuMs), `hand-written msw ${ms(r.handMs)}`, x(r.wallRatio), `≤ ${BARS.vitestPerFile}×`, r.wallRatio <= BARS.vitestPerFile)
  } else if (only.includes('vitest')) notRun(1, '10 vitest files', failed('vitest'))
  // 2
  if (sec.fresh && !failed('fresh')) {
    const r = sec.fresh
    row(2, 'fresh process: import + createEmulator + msw + first answer', ms(r.emuMs), `hand-written msw ${ms(r.handMs)} (node alone ${ms(r.nodeMs)})`, x(r.ratio), `≤ ${BARS.fresh}×`, r.ratio <= BARS.fresh)
  } else if (only.includes('fresh')) notRun(2, 'fresh process', failed('fresh'))
  // 3
  if (sec.inproc && !failed('inproc')) {
    const r = sec.inproc
    row(3, 'in-process req/s through msw fetch', rps(r.emuMsw.rps), `hand-written msw ${rps(r.handMsw.rps)} (CPU per request ${us(r.emuMsw.cpuUs)} vs ${us(r.handMsw.cpuUs)}: ${x(r.mswCpuRatio)})`, x(r.mswRatio), `≥ ${BARS.mswVsHand}×`, r.mswRatio >= BARS.mswVsHand)
    row(3, 'in-process req/s, emu.handle() alone', rps(r.emuHandle.rps), `svc-mock through msw ${rps(r.emuMsw.rps)}; hand-written msw ${rps(r.handMsw.rps)} (${x(r.handleRatio)})`, x(r.handleVsMsw), '> 1× ("faster still")', r.handleVsMsw > 1 && r.handleRatio > 1)
  } else if (only.includes('inproc')) notRun(3, 'in-process steady state', failed('inproc'))
  // 4
  if (sec.coldstart && !failed('coldstart')) {
    const systems = sec.coldstart.systems
    const svc = systems[0]
    const other = (label) => systems.find((s) => s.label === label)
    const bare = other('bare node:http')
    row(4, 'cold start, spawn to first 200', ms(svc.median), `bare node:http ${ms(bare.median)}`, x(bare.svcMockRatio), `≤ ${BARS.coldVsBare}×`, bare.svcMockRatio <= BARS.coldVsBare)
    const o2 = other('oauth2-mock-server')
    row(4, 'cold start vs oauth2-mock-server', ms(svc.median), `oauth2-mock-server ${ms(o2.median)}`, x(o2.svcMockRatio), '< 1× (below it)', o2.svcMockRatio < BARS.coldVsOauth2MockServer)
    for (const label of ['WireMock', 'Prism']) {
      const p = other(label)
      if (p.unavailable) notRun(4, `cold start vs ${label}`, p.unavailable)
      else row(4, `cold start vs ${label}`, ms(svc.median), `${label} ${ms(p.median)}`, x(p.svcMockRatio), '-', undefined)
    }
  } else if (only.includes('coldstart')) notRun(4, 'cold start', failed('coldstart'))
  // 5, 6, 8. Each row has its floor: for the versions GET a bare server answering the same bytes,
  // for the webhook a bare receiver doing the same work (the same-bytes server shown beside it).
  const byLabel = (results, label) => results.find((r) => r.label === label)
  const socketRows = (n, name, results, { floor, floorText, bar, peerBars }) => {
    const svc = results[0]
    const base = byLabel(results, floor)
    const bare = byLabel(results, 'bare node:http')
    const r = roundRatio(svc, base)
    row(n, `${name} req/s vs ${floorText}`, `${fmt(svc.rps, 0)}/s`, `${floor} ${fmt(base.rps, 0)}/s`, x(r), `≥ ${bar}× (${Math.round(bar * 100)}%)`, r >= bar)
    if (base !== bare) row(n, `${name} req/s vs bare (same bytes)`, `${fmt(svc.rps, 0)}/s`, `bare ${fmt(bare.rps, 0)}/s`, x(roundRatio(svc, bare)))
    const p99 = roundRatio(svc, bare, 'p99')
    row(n, `${name} p50 / p99 vs bare`, `${ms(svc.p50)} / ${ms(svc.p99)}`, `bare ${ms(bare.p50)} / ${ms(bare.p99)}`, `p99 ${x(p99)}`, `p99 ≤ ${BARS.p99VsBare}×`, p99 <= BARS.p99VsBare)
    for (const [label, peerBar, barText] of peerBars) {
      const peer = byLabel(results, label)
      if (!peer) {
        notRun(n, `${name} vs ${label}`, peerErrors[label.toLowerCase()] ?? 'not started')
        continue
      }
      const pr = roundRatio(svc, peer)
      row(n, `${name} req/s vs ${label}`, `${fmt(svc.rps, 0)}/s`, `${label} ${fmt(peer.rps, 0)}/s (p50 ${ms(peer.p50)}, p99 ${ms(peer.p99)})`, x(pr), barText, pr >= peerBar && (peerBar > 1 || pr > 1))
    }
  }
  const versionsFloor = { floor: 'bare node:http', floorText: 'bare (same bytes)', bar: BARS.versionsVsBare }
  const webhookFloor = { floor: 'bare receiver', floorText: 'a bare receiver doing the same work', bar: BARS.webhookVsReceiver }
  if (sec.versions && !failed('versions')) {
    socketRows(5, 'versions GET', sec.versions.results, { ...versionsFloor, peerBars: [
      ['WireMock', BARS.aheadOfPeer, '> 1× (ahead of every peer)'],
      ['Prism', BARS.aheadOfPeer, '> 1× (ahead of every peer)'],
    ] })
  } else if (only.includes('versions')) notRun(5, 'versions GET', failed('versions'))
  if (sec.webhook && !failed('webhook')) {
    socketRows(6, 'webhook POST', sec.webhook.results, { ...webhookFloor, peerBars: [['WireMock', BARS.webhookVsWiremock, `≥ ${BARS.webhookVsWiremock}×`]] })
  } else if (only.includes('webhook')) notRun(6, 'webhook POST', failed('webhook'))
  // 7
  if (sec.token && !failed('token')) {
    for (const alg of ['RS256', 'ES256']) {
      const t = sec.token[alg]
      if (!t) continue
      const [svc, o2] = t.results
      const r = roundRatio(svc, o2)
      row(7, `token, client credentials, ${alg}`, `${fmt(svc.rps, 0)}/s (p99 ${ms(svc.p99)})`, `oauth2-mock-server ${fmt(o2.rps, 0)}/s (p99 ${ms(o2.p99)})`, x(r), `≥ ${BARS.tokenVsOauth2MockServer}×`, r >= BARS.tokenVsOauth2MockServer)
      const floor = t.results[2]
      // The floor's own ratio to the peer is the most any server could show in this run; svc-mock's
      // ratio to the floor is product.md's bar for tokens.
      if (floor) {
        const vsFloor = roundRatio(svc, floor)
        row(7, `token vs the floor (bare node:http signing the same claims), ${alg}`, `${fmt(svc.rps, 0)}/s`, `floor ${fmt(floor.rps, 0)}/s (floor ÷ oauth2-mock-server ${x(roundRatio(floor, o2))})`, x(vsFloor), `≥ ${BARS.tokenVsFloor}×`, vsFloor >= BARS.tokenVsFloor)
      }
    }
  } else if (only.includes('token')) notRun(7, 'token', failed('token'))
  // 8: from the runs of rows 5 and 6; the bars are theirs, by CPU instead of req/s.
  for (const [name, key, { floor, bar }] of [
    ['versions GET', 'versions', versionsFloor],
    ['webhook POST', 'webhook', webhookFloor],
  ]) {
    const s = sec[key]
    if (!s || failed(key)) continue
    const svc = s.results[0]
    const base = byLabel(s.results, floor)
    const r = roundRatio(svc, base, 'serverCpuUsPerRequest')
    const othersText = s.results.filter((p) => p !== svc && p !== base).map((p) => `; ${p.label} ${us(p.cpuUs)}`).join('')
    row(8, `server CPU per ${name}`, us(svc.cpuUs), `${floor} ${us(base.cpuUs)}${othersText}`, x(r), `≤ ${fmt(1 / bar, 1)}× (row ${key === 'versions' ? 5 : 6}'s bar by CPU)`, r <= 1 / bar)
  }
  if (sec.token && !failed('token')) {
    for (const alg of ['RS256', 'ES256']) {
      const t = sec.token[alg]
      if (t) row(8, `server CPU per token, ${alg}`, us(t.results[0].cpuUs), `oauth2-mock-server ${us(t.results[1].cpuUs)}${t.results[2] ? `; floor ${us(t.results[2].cpuUs)}` : ''}`, x(roundRatio(t.results[0], t.results[1], 'serverCpuUsPerRequest')), '-', undefined)
    }
  }
  // 9
  if (sec.memory && !failed('memory')) {
    const m = sec.memory
    const svc = m['svc-mock']
    const bare = m['bare node:http']
    const peersIdle = []
    for (const key of ['versions', 'webhook']) for (const r of sec[key]?.results?.slice(1).filter((p) => !p.label.startsWith('bare')) ?? []) if (!peersIdle.some((p) => p.startsWith(r.label))) peersIdle.push(`${r.label} ${MB(r.idleRssMB)}`)
    const o2 = sec.token?.RS256?.results?.[1]
    if (o2) peersIdle.push(`oauth2-mock-server ${MB(o2.idleRssMB)}`)
    row(9, 'RSS idle after start', MB(svc.idle), `bare ${MB(bare.idle)}${peersIdle.length ? `; ${peersIdle.join(', ')}` : ''}`, x(svc.idle / bare.idle), `≤ ${BARS.rssIdleMB} MB`, svc.idle <= BARS.rssIdleMB)
    row(9, `RSS after ${m.seconds} s mixed load (growth after ${m.warmupSeconds} s)`, `${MB(svc.end)} (+${MB(svc.growthAfterWarmup)})`, `bare ${MB(bare.end)} (+${MB(bare.growthAfterWarmup)})`, x(svc.end / bare.end), `flat: ≤ +${BARS.rssGrowthAfterWarmupMB} MB`, svc.growthAfterWarmup <= BARS.rssGrowthAfterWarmupMB && svc.bad === 0)
  } else if (only.includes('memory')) notRun(9, 'memory', failed('memory'))
}

