/**
 * Finds a Chromium for the dashboard's browser test without a system package manager, in this
 * order: the one SVC_MOCK_CHROMIUM names; the system's (chromium, chromium-browser, google-chrome
 * on PATH, or Chrome's macOS app); the headless Chromium that the devDependency
 * `@sparticuz/chromium` ships for Linux x64, unpacked once into node_modules/.cache/. A candidate
 * counts only if it starts (`--version`), so a binary that lacks its shared libraries is passed
 * over. Where none runs, the answer is one line saying why and what to install.
 */
import { execFile } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/** The flags the browser tests start Chromium with: headless in a container, no network of its own. */
export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export type FoundBrowser = { executablePath: string; from: string } | { executablePath: undefined; missing: string }

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
const MAC_APPS = ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium']
const PACKAGE = join(ROOT, 'node_modules', '@sparticuz', 'chromium')

/** The first Chromium that starts here, and where it came from; or why there is none. */
export async function findChromium(): Promise<FoundBrowser> {
  const named = process.env['SVC_MOCK_CHROMIUM']
  if (named) {
    if (await starts(named)) return { executablePath: named, from: 'SVC_MOCK_CHROMIUM' }
    return { executablePath: undefined, missing: `SVC_MOCK_CHROMIUM=${named} does not start (\`${named} --version\` fails): point it at a Chromium or Chrome binary, or unset it.` }
  }
  for (const candidate of [...SYSTEM_NAMES.map(onPath), ...MAC_APPS]) {
    if (candidate && (await starts(candidate))) return { executablePath: candidate, from: 'the system' }
  }
  const shipped = await unpackShipped()
  if (shipped && (await starts(shipped))) return { executablePath: shipped, from: '@sparticuz/chromium' }
  const why = !existsSync(PACKAGE)
    ? '@sparticuz/chromium is not installed (run npm install)'
    : process.platform === 'linux' && process.arch === 'x64'
      ? "@sparticuz/chromium's Chromium could not be unpacked or does not start here (it needs libnss3 and libnspr4)"
      : `@sparticuz/chromium ships Linux x64 only, not ${process.platform} ${process.arch}`
  return { executablePath: undefined, missing: `no Chromium: SVC_MOCK_CHROMIUM is unset, none of ${SYSTEM_NAMES.join(', ')} is on PATH, and ${why}. Install Chromium or Chrome (e.g. apt-get install chromium), or set SVC_MOCK_CHROMIUM to one.` }
}

/** `name`'s path on PATH, if it is there and executable. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue
    const path = join(dir, name)
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // Not in this folder.
    }
  }
  return undefined
}

async function starts(path: string): Promise<boolean> {
  try {
    await run(path, ['--version'])
    return true
  } catch {
    return false
  }
}

/**
 * The package's own `executablePath()` unpacks its Brotli files into `os.tmpdir()`; a child
 * process with TMPDIR set to a fresh folder keeps them out of /tmp, and the folder is renamed into
 * place only once complete, so an interrupted unpack is never taken for a whole one.
 */
async function unpackShipped(): Promise<string | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64' || !existsSync(join(PACKAGE, 'package.json'))) return undefined
  const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string }
  const cache = join(ROOT, 'node_modules', '.cache', 'svc-mock')
  const unpacked = join(cache, `sparticuz-chromium-${version}`)
  const binary = join(unpacked, 'chromium')
  if (existsSync(binary)) return binary
  mkdirSync(cache, { recursive: true })
  const staging = mkdtempSync(join(cache, 'unpacking-'))
  try {
    const script = "const { default: chromium } = await import('@sparticuz/chromium'); await chromium.executablePath()"
    await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, TMPDIR: staging } })
    renameSync(staging, unpacked)
  } catch {
    // Another run unpacked it first (the rename found the folder there), or it cannot be unpacked.
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  return existsSync(binary) ? binary : undefined
}
