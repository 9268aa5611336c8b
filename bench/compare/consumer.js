// In-process rows of bench/compare.js, measured in a scratch consumer project outside the repo
// (so nothing resolves from the repo's own node_modules by accident): svc-mock installed from the
// tarball `npm pack` makes of the current tree (what users get), msw and vitest from the registry
// at the versions the repo itself tests with. Reinstalled only when the tarball or those versions
// change.
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pinning, ROOT, runPinned, spawnPinned, stop } from './env.js'
import { median } from '../lib/stats.js'
import { quiet } from './socket.js'

const TEMPLATES = fileURLToPath(new URL('./consumer/', import.meta.url))
export const CONSUMER_DIR = join(os.tmpdir(), `svc-mock-bench-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`, 'consumer')
const FILES = 10

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/** The version of a package the repo's lockfile installs (msw, vitest). */
function lockedVersion(name) {
  const lock = readJson(join(ROOT, 'package-lock.json'))
  const v = lock.packages?.[`node_modules/${name}`]?.version
  if (!v) throw new Error(`${name} is not in package-lock.json`)
  return v
}

/**
 * Packs the current tree, installs it with msw and vitest into the scratch consumer, copies the
 * bench files there and captures svc-mock's in-process versions answer for the hand-written
 * handlers. Resolves a description of what was installed.
 */
export async function prepareConsumer(log) {
  const packDir = join(CONSUMER_DIR, '..', 'pack')
  rmSync(packDir, { recursive: true, force: true })
  mkdirSync(packDir, { recursive: true })
  mkdirSync(CONSUMER_DIR, { recursive: true })
  // dist/ is already built by `npm run bench:compare`: no lifecycle scripts here.
  const packed = await runPinned(null, 'npm', ['pack', '--ignore-scripts', '--pack-destination', packDir, '--json', '--loglevel', 'error'], { timeoutMs: 120_000 })
  if (packed.code !== 0) throw new Error(`npm pack failed (exit ${packed.code}): ${packed.stderr.trim().slice(-800)}`)
  const { filename, files } = JSON.parse(packed.stdout)[0]
  const tarball = readFileSync(join(packDir, filename))
  const sha = createHash('sha256').update(tarball).digest('hex').slice(0, 12)
  const tgz = `svc-mock-${sha}.tgz`
  for (const f of readdirSync(CONSUMER_DIR)) if (/^svc-mock-.*\.tgz$/.test(f) && f !== tgz) rmSync(join(CONSUMER_DIR, f))
  writeFileSync(join(CONSUMER_DIR, tgz), tarball)
  rmSync(packDir, { recursive: true, force: true })

  const deps = { 'svc-mock': `file:./${tgz}`, msw: lockedVersion('msw'), vitest: lockedVersion('vitest') }
  const pkg = { name: 'svc-mock-bench-consumer', private: true, type: 'module', dependencies: deps }
  const pkgFile = join(CONSUMER_DIR, 'package.json')
  const same = existsSync(pkgFile) && JSON.stringify(readJson(pkgFile)) === JSON.stringify(pkg)
  const installed = (name) => {
    const f = join(CONSUMER_DIR, 'node_modules', name, 'package.json')
    return existsSync(f) ? readJson(f).version : undefined
  }
  const marker = join(CONSUMER_DIR, 'node_modules', '.svc-mock-bench-tarball')
  const upToDate = same && installed('msw') === deps.msw && installed('vitest') === deps.vitest && existsSync(marker) && readFileSync(marker, 'utf8') === sha
  if (!upToDate) {
    writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`)
    log(`installing ${tgz} (${files.length} files), msw@${deps.msw} and vitest@${deps.vitest} into ${CONSUMER_DIR}`)
    const r = await runPinned(null, 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'], { cwd: CONSUMER_DIR, timeoutMs: 300_000 })
    if (r.code !== 0) throw new Error(`npm install in ${CONSUMER_DIR} failed (exit ${r.code}${r.timedOut ? ', timed out' : ''}): ${(r.stderr || r.stdout).trim().slice(-800)}`)
    writeFileSync(marker, sha)
  }

  for (const f of ['request.js', 'capture.js', 'first-emu.js', 'first-hand.js', 'inproc.js']) copyFileSync(join(TEMPLATES, f), join(CONSUMER_DIR, f))
  for (const kind of ['emu', 'hand', 'base']) {
    const dir = join(CONSUMER_DIR, kind)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir)
    for (let i = 1; i <= FILES; i++) copyFileSync(join(TEMPLATES, `${kind}.test.js`), join(dir, `file-${String(i).padStart(2, '0')}.test.js`))
  }
  const cap = await runPinned(null, process.execPath, ['capture.js'], { cwd: CONSUMER_DIR, timeoutMs: 60_000 })
  if (cap.code !== 0) throw new Error(`capturing svc-mock's in-process answer failed: ${cap.stderr.trim().slice(-800)}`)
  const answer = JSON.parse(cap.stdout.trim().split('\n').pop())
  const versions = Object.fromEntries(['svc-mock', 'msw', 'vitest', '@msw/data', '@faker-js/faker', 'jose', 'zod'].map((n) => [n, installed(n)]))
  return { dir: CONSUMER_DIR, tarball: tgz, tarballFiles: files.length, tarballBytes: tarball.length, reinstalled: !upToDate, versions, answer }
}

// ---- row 1: 10 vitest files

function vitestRun(kind) {
  const bin = join(CONSUMER_DIR, 'node_modules', 'vitest', 'vitest.mjs')
  // vitest spreads files over workers: it gets every CPU, as in a user's project.
  return runPinned(pinning.all, process.execPath, [bin, 'run', '--dir', kind], { cwd: CONSUMER_DIR, timeoutMs: 180_000, env: { CI: '1', NO_COLOR: '1' } })
}

/**
 * Rounds of (emu, hand, base): wall time of `vitest run` over 10 files each, spawn to exit. Per
 * file = (wall − wall of the 10 trivial files) / 10, ratios within each round.
 */
export async function measureVitest({ rounds, log }) {
  // One untimed run (file cache, vitest's own cache): the svc-mock files load msw and vitest too.
  await checked('emu')
  const runs = []
  for (let round = 0; round < rounds; round++) {
    const r = {}
    // Each round in another order, so no system always runs right after the same one.
    const order = ['emu', 'hand', 'base']
    for (let i = 0; i < round % order.length; i++) order.push(order.shift())
    for (const kind of order) r[kind] = (await checked(kind)).ms
    r.emuPerFile = (r.emu - r.base) / FILES
    r.handPerFile = (r.hand - r.base) / FILES
    r.perFileRatio = r.emuPerFile / r.handPerFile
    r.wallRatio = r.emu / r.hand
    runs.push(r)
    log(`    round ${round + 1}/${rounds}: emu ${r.emu.toFixed(0)} ms, hand-written ${r.hand.toFixed(0)} ms, trivial ${r.base.toFixed(0)} ms; extra per file ${r.emuPerFile.toFixed(0)} vs ${r.handPerFile.toFixed(0)} ms`)
  }
  const m = (k) => median(runs.map((r) => r[k]))
  return { files: FILES, rounds, runs, emuMs: m('emu'), handMs: m('hand'), baseMs: m('base'), emuPerFileMs: m('emuPerFile'), handPerFileMs: m('handPerFile'), perFileRatio: m('perFileRatio'), wallRatio: m('wallRatio') }

  async function checked(kind) {
    const r = await vitestRun(kind)
    const out = `${r.stdout}\n${r.stderr}`
    if (r.code !== 0 || !new RegExp(`Tests\\s+${FILES} passed`).test(out)) {
      throw new Error(`vitest run --dir ${kind} failed (exit ${r.code}${r.timedOut ? ', timed out' : ''}):\n${out.trim().slice(-1500)}`)
    }
    return r
  }
}

// ---- row 2: a fresh process

/** Rounds of (first-emu.js, first-hand.js, `node -e 0`), spawn to exit, pinned to the server CPU. */
export async function measureFresh({ rounds, log }) {
  const one = async (args) => {
    const r = await runPinned(pinning.server, process.execPath, args, { cwd: CONSUMER_DIR, timeoutMs: 60_000 })
    if (r.code !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${r.code}): ${r.stderr.trim().slice(-800)}`)
    const line = r.stdout.trim().split('\n').pop()
    return { ms: r.ms, marks: line ? JSON.parse(line) : {} }
  }
  await one(['first-emu.js'])
  await one(['first-hand.js'])
  const runs = []
  for (let round = 0; round < rounds; round++) {
    const emu = await one(['first-emu.js'])
    const hand = await one(['first-hand.js'])
    const node = await one(['-e', '0'])
    runs.push({ emu: emu.ms, hand: hand.ms, node: node.ms, ratio: emu.ms / hand.ms, emuMarks: emu.marks, handMarks: hand.marks })
    log(`    round ${round + 1}/${rounds}: svc-mock ${emu.ms.toFixed(0)} ms, hand-written ${hand.ms.toFixed(0)} ms, node alone ${node.ms.toFixed(0)} ms`)
  }
  const m = (f) => median(runs.map(f))
  const marks = (key) => ({
    imported: m((r) => r[key].imported),
    created: m((r) => r[key].created - r[key].imported),
    listening: m((r) => r[key].listening - r[key].created),
    answered: m((r) => r[key].answered - r[key].listening),
  })
  return { rounds, runs, emuMs: m((r) => r.emu), handMs: m((r) => r.hand), nodeMs: m((r) => r.node), ratio: m((r) => r.ratio), emuMarks: marks('emuMarks'), handMarks: marks('handMarks') }
}

// ---- row 3: steady state in-process

function startInproc(kind) {
  return new Promise((resolve, reject) => {
    const script = join(CONSUMER_DIR, 'inproc.js')
    // spawn() with an 'ipc' stdio entry gives the child (exec'd by taskset) its IPC channel.
    const child = spawnPinned(pinning.server, process.execPath, [script, kind], { cwd: CONSUMER_DIR, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const timer = setTimeout(() => {
      stop(child)
      reject(new Error(`inproc ${kind} not ready within 60 s`))
    }, 60_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`inproc ${kind} exited with ${code} before it was ready`))
    })
    child.once('message', (msg) => {
      clearTimeout(timer)
      child.removeAllListeners('exit')
      resolve({ kind, child, bytes: msg.bytes })
    })
  })
}

function burst(p, ms, max) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inproc ${p.kind}: burst did not end`)), ms + 30_000)
    p.child.once('message', (msg) => {
      clearTimeout(timer)
      resolve(msg)
    })
    p.child.send({ type: 'burst', ms, max })
  })
}

/**
 * One child per system (svc-mock through msw, the hand-written msw handler, emu.handle() alone),
 * pinned to the server CPU; after a warm-up burst each, rounds of one burst per system of
 * sequential versions GETs (answer and body awaited). Ratios within each round.
 */
export async function measureInproc({ rounds, seconds, warmupSeconds, log }) {
  const kinds = ['emu-msw', 'hand-msw', 'emu-handle']
  const procs = []
  try {
    for (const k of kinds) procs.push(await startInproc(k))
    const max = 5_000_000
    for (const p of procs) await burst(p, warmupSeconds * 1000, max)
    const runs = []
    for (let round = 0; round < rounds; round++) {
      const r = {}
      // As in the socket rows: the order turns each round and a burst starts once the other
      // children are quiet (a child collects the garbage of its burst after it).
      for (let k = 0; k < procs.length; k++) {
        const p = procs[(round + k) % procs.length]
        await quiet(procs.filter((o) => o !== p).map((o) => o.child.pid))
        const b = await burst(p, seconds * 1000, max)
        r[p.kind] = { rps: (b.requests * 1000) / b.ms, p50Us: b.p50Us, p99Us: b.p99Us, cpuUs: b.cpuUs, requests: b.requests }
      }
      r.mswRatio = r['emu-msw'].rps / r['hand-msw'].rps
      r.mswCpuRatio = r['emu-msw'].cpuUs / r['hand-msw'].cpuUs
      r.handleRatio = r['emu-handle'].rps / r['hand-msw'].rps
      r.handleVsMsw = r['emu-handle'].rps / r['emu-msw'].rps
      runs.push(r)
      log(`    round ${round + 1}/${rounds}: svc-mock msw ${r['emu-msw'].rps.toFixed(0)}/s (${r['emu-msw'].cpuUs.toFixed(0)} µs CPU), hand-written msw ${r['hand-msw'].rps.toFixed(0)}/s (${r['hand-msw'].cpuUs.toFixed(0)} µs), emu.handle ${r['emu-handle'].rps.toFixed(0)}/s (${r['emu-handle'].cpuUs.toFixed(0)} µs)`)
    }
    const m = (f) => median(runs.map(f))
    const per = (k) => ({ rps: m((r) => r[k].rps), p50Us: m((r) => r[k].p50Us), p99Us: m((r) => r[k].p99Us), cpuUs: m((r) => r[k].cpuUs) })
    return {
      rounds,
      seconds,
      bytes: Object.fromEntries(procs.map((p) => [p.kind, p.bytes])),
      runs,
      emuMsw: per('emu-msw'),
      handMsw: per('hand-msw'),
      emuHandle: per('emu-handle'),
      mswRatio: m((r) => r.mswRatio),
      mswCpuRatio: m((r) => r.mswCpuRatio),
      handleRatio: m((r) => r.handleRatio),
      handleVsMsw: m((r) => r.handleVsMsw),
    }
  } finally {
    for (const p of procs) await stop(p.child)
  }
}
