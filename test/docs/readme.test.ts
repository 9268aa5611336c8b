/**
 * The examples of the README and of docs/*.md, run as written, so what users copy keeps working
 * wherever it stands:
 * - every shell block (bash, `set -e`) against a running server, with curl failing on an error
 *   answer (`--fail-with-body`), in a scratch folder (so an example that needs a file must make it);
 * - every `npx svc-mock …` line that starts a server: started (on a free port, `--log json`, every
 *   line of its output JSON), then stopped with SIGTERM (exit 0); other `npx svc-mock` commands
 *   must exit 0; `npx svc-mock` runs this checkout's bin;
 * - every TypeScript block as a test file in a child vitest (imports of `svc-mock…` mapped to the
 *   built package, dist/, which is what a user imports; `npm test` builds first);
 * - the CI workflow's `svc-mock exec` flags (the command after `--` replaced by `true`);
 * - the CI workflow's `svc-mock verify` lines, run in order against the test server, its
 *   `SVC_MOCK_VERIFY_*` variables (the CI's secrets) set to the default fixtures' values.
 * Only the address differs: `http://127.0.0.1:4010` becomes the test server's.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { DOCUMENTS, ROOT, RUN_ELSEWHERE, blocksOf, where } from '../support/doc-blocks.js'

const BIN = join(ROOT, 'bin/svc-mock.js')
const DEFAULT_URL = 'http://127.0.0.1:4010'

const allBlocks = DOCUMENTS.flatMap(blocksOf)
const blocks = allBlocks.filter((b) => !RUN_ELSEWHERE[b.file]?.includes(b.section))

/** Shell commands of a block: continuation lines joined, blank and comment-only lines dropped. */
function commands(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
}

/** A `npx svc-mock` that starts a server (and so never ends by itself). */
const startsServer = (command: string): boolean => /^npx svc-mock(\s|$)/.test(command) && !/^npx svc-mock (scenarios|exec|help|ca|verify)\b|--help|--version/.test(command)

/** Shell functions the examples run with: this checkout's svc-mock, and curl that fails on an error answer. */
const PRELUDE = `set -eo pipefail
npx() { if [ "$1" = svc-mock ]; then shift; node "$SVC_MOCK_BIN" "$@"; else command npx "$@"; fi; }
curl() { command curl -sS --fail-with-body "$@"; }
`

interface Run {
  code: number | null
  output: string
}

function run(file: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: options.cwd, env: { ...process.env, SVC_MOCK_BIN: BIN, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

/** Starts the server line on a free port, checks it listens and logs JSON, then stops it. */
async function startAndStop(command: string, cwd: string): Promise<{ code: number | null; lines: string[] }> {
  const args = command.replace(/\s+#.*$/, '').split(/\s+/).slice(2)
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args, '--port', '0', '--log', 'json'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (stdout.includes('"event":"listening"')) resolve()
    })
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    void exited.then((code) => reject(new Error(`${command} exited with ${String(code)} before listening:\n${stdout}${stderr}`)))
  })
  child.kill('SIGTERM')
  return { code: await exited, lines: stdout.trim().split('\n') }
}

describe('the examples of the README and docs/', () => {
  let server: RunningServer
  let scratch: string
  beforeAll(async () => {
    server = await startServer({ port: 0 })
    scratch = mkdtempSync(join(tmpdir(), 'svc-mock-readme-'))
  })
  afterAll(async () => {
    await server.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('has the examples this test runs', () => {
    const readme = blocks.filter((b) => b.file === 'README.md')
    expect(readme.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(4)
    expect(readme.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(2)
    expect(blocks.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(12)
    expect(blocks.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(8)
    expect(blocks.filter((b) => b.lang === 'yaml').length).toBeGreaterThanOrEqual(1)
  })

  it('takes a new user from a clone to a running emulator in two commands, and says what npm test runs and what npm run test:all adds', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const clone = blocks.filter((b) => b.file === 'README.md' && /clone/i.test(b.section))
    expect(clone.map((b) => commands(b.code))).toEqual([['npm install', 'npx svc-mock']])
    expect(text).toMatch(/`npm test` builds svc-mock and runs its [^.]*, and `npm run test:all` adds the fuzz suite's seeded sample/)
  })

  it('leaves out only sections that exist and hold examples another test runs', () => {
    for (const [file, sections] of Object.entries(RUN_ELSEWHERE)) {
      for (const section of sections) expect(allBlocks.filter((b) => b.file === file && b.section === section).length, `${file}, ${section}`).toBeGreaterThan(0)
    }
  })

  for (const block of blocks.filter((b) => b.lang === 'sh')) {
    it(`runs the shell block at ${where(block)} as written`, async () => {
      let pending: string[] = []
      const flush = async (): Promise<void> => {
        if (pending.length === 0) return
        const script = PRELUDE + pending.join('\n').replaceAll(DEFAULT_URL, server.url)
        pending = []
        const result = await run('bash', ['-c', script], { cwd: scratch })
        expect(result.code, `${script}\n---\n${result.output}`).toBe(0)
      }
      for (const command of commands(block.code)) {
        if (/^npm (install|ci)\b/.test(command)) continue // what installing gives is the packed-tarball test's (.ci/run)
        if (startsServer(command)) {
          await flush()
          const { code, lines } = await startAndStop(command, scratch)
          expect(code, command).toBe(0)
          for (const line of lines) expect(() => JSON.parse(line) as unknown, `${command}: ${line}`).not.toThrow()
        } else {
          pending.push(command)
        }
      }
      await flush()
    })
  }

  it('the CI workflows\' svc-mock exec flags are valid', async () => {
    const yaml = blocks.filter((b) => b.lang === 'yaml').map((b) => b.code).join('\n')
    const lines = [...yaml.matchAll(/run: (npx svc-mock exec .*?) -- .*/g)].map((m) => m[1] ?? '')
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      const result = await run('bash', ['-c', `${PRELUDE}${line} -- true`], { cwd: scratch })
      expect(result.code, `${line}\n${result.output}`).toBe(0)
    }
  })

  it("the CI workflows' svc-mock verify lines run against svc-mock, with the variables a CI's secret store would set", async () => {
    const lines = blocks
      .filter((b) => b.lang === 'yaml')
      .flatMap((b) => [...b.code.matchAll(/run: (npx svc-mock verify.*)/g)].map((m) => m[1] ?? ''))
    expect(lines.length).toBeGreaterThan(0)
    const env = {
      SVC_MOCK_VERIFY_TARGET: server.url,
      SVC_MOCK_VERIFY_CLIENT_ID: 'ci-client',
      SVC_MOCK_VERIFY_CLIENT_SECRET: 'ci-secret',
      SVC_MOCK_VERIFY_ELEMENT: 'acme-collection/acme-tenant/processes/default/0f8fad5b-d9cb-469f-a165-70867728950e',
    }
    const result = await run('bash', ['-c', `${PRELUDE}${lines.join('\n')}`], { cwd: scratch, env })
    expect(result.code, `${lines.join('\n')}\n${result.output}`).toBe(0)
    expect(result.output).toContain(' 0 differ')
  })

  it('runs every TypeScript block as a test file', async () => {
    const dir = join(ROOT, 'test/docs/.readme-run')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    // What package.json exports: `svc-mock/vitest` is ./dist/vitest.js, as in a user's node_modules.
    const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default?: string }> }
    const imports = Object.fromEntries(Object.entries(exports).map(([entry, target]) => [entry.replace(/^\./, 'svc-mock'), target.default ?? '']))
    const ts = blocks.filter((b) => b.lang === 'ts')
    try {
      ts.forEach((block, index) => {
        let code = block.code.replace(/from '(svc-mock(?:\/[a-z]+)?)'/g, (whole, name: string) => (imports[name] ? `from '${join(ROOT, imports[name])}'` : whole))
        code = code.replaceAll(DEFAULT_URL, server.url)
        if (!/\bit\(/.test(code)) code += "\nimport { it as readmeIt } from 'vitest'\nreadmeIt('runs as written', () => {})\n"
        writeFileSync(join(dir, `${block.file.replace(/\W/g, '-')}-line-${block.line}-${index}.readme.ts`), `// ${where(block)}\n${code}`)
      })
      // The blocks share one module graph (isolate: false), so svc-mock, msw and vitest load once,
      // not once per block. Each block closes what it opens, as the docs show users; one that did
      // not would leak into the blocks run after it, so an example must keep closing what it opens.
      writeFileSync(join(dir, 'vitest.config.ts'), "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { include: ['**/*.readme.ts'], testTimeout: 15000, isolate: false } })\n")
      const result = await run(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(dir, 'vitest.config.ts'), '--dir', dir], { cwd: ROOT })
      expect(result.code, result.output).toBe(0)
      expect(result.output).toMatch(new RegExp(`Test Files\\s+${ts.length} passed`))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000) // a child vitest that runs one file per block
})
