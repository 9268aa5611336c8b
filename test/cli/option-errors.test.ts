/**
 * Every option with a rule is checked once, where the option is used, as a ConfigError naming the
 * option; the command turns that error into the flag when the value came from the flag and into
 * the variable when it came from the variable (exit 2), naming any other option it mentions as a
 * flag. Run through the command's `main()` in-process, with its own standard error and environment.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/adapters/server.js'
import { FLAGS } from '../../src/cli/flags.js'
import { main } from '../../src/cli/index.js'
import { readOptions } from '../../src/cli/options.js'
import { ConfigError } from '../../src/index.js'

const NOT_PEM = fileURLToPath(new URL('../../package.json', import.meta.url))
const FOLDER = mkdtempSync(join(tmpdir(), 'svc-mock-option-errors-'))

interface Case {
  /** The flag given a bad value. */
  readonly flag: string
  readonly bad: string
  /** What the message says after the flag or variable. */
  readonly problem: string
  /** Another flag given with it, by the same way (flag or variable). */
  readonly with?: readonly [flag: string, text: string]
}

const CASES: readonly Case[] = [
  { flag: 'port', bad: '99999', problem: 'must be a whole number from 0 to 65535, got "99999"' },
  { flag: 'public-url', bad: 'nope', problem: 'must be an absolute URL such as https://acme.svc-mock.test, got "nope"' },
  { flag: 'max-teams', bad: '-1', problem: 'must be a whole number from 0 to 1000000, got "-1"' },
  { flag: 'teams', bad: '3', with: ['max-teams', '2'], problem: 'must be a whole number from 0 to 2, got "3"' },
  { flag: 'tls-key', bad: NOT_PEM, problem: 'needs --tls-cert FILE (or SVC_MOCK_TLS_CERT) too' },
  { flag: 'tls-cert', bad: NOT_PEM, with: ['tls-key', NOT_PEM], problem: 'is not a PEM certificate' },
  { flag: 'seed', bad: '-1', problem: 'must be a whole number >= 0, got "-1"' },
  { flag: 'clock', bad: 'sundial', problem: 'must be one of real, manual, got "sundial"' },
  { flag: 'time-scale', bad: '0', problem: 'must be a number above 0, got "0"' },
  { flag: 'time-scale', bad: '2', with: ['clock', 'manual'], problem: 'applies to the real clock only: drop it, or use --clock real' },
  { flag: 'log', bad: 'loud', problem: 'must be one of pretty, json, silent, got "loud"' },
  { flag: 'static-keys', bad: 'alowed', problem: 'must be one of allowed, rejected, got "alowed" (did you mean allowed?)' },
  { flag: 'token-lifetime', bad: '0', problem: 'must be a whole number from 1 to 315360000, got "0"' },
  { flag: 'token-algorithm', bad: 'HS256', problem: 'must be one of RS256, ES256, ES384, EdDSA, got "HS256"' },
  { flag: 'consent', bad: 'deny', problem: 'must be one of auto, page, got "deny"' },
  { flag: 'version-list-key', bad: 'keys', problem: 'must be one of elements, values, both, got "keys"' },
  { flag: 'proxy', bad: 'ftp://team.example', problem: 'must use http or https, got "ftp://team.example"' },
  { flag: 'proxy-timeout', bad: '0', with: ['proxy', 'http://127.0.0.1:9'], problem: 'must be a whole number from 1 to 86400000, got "0"' },
  { flag: 'proxy-timeout', bad: '500', problem: 'applies to the proxy: give --proxy URL (or SVC_MOCK_PROXY) too' },
  { flag: 'record', bad: FOLDER, problem: 'records what the proxy forwards: give --proxy URL (or SVC_MOCK_PROXY) too' },
]

function flagNamed(name: string): (typeof FLAGS)[number] {
  const flag = FLAGS.find((f) => f.name === name)
  if (flag === undefined) throw new Error(`no flag --${name}`)
  return flag
}

/** Runs the command in-process; its exit code and what it wrote to standard error. */
async function run(argv: readonly string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  const code = await main(argv, { out: () => undefined, err: (text) => (stderr += `${text}\n`), env })
  return { code, stderr }
}

const label = (c: Case): string => `--${c.flag} ${c.bad === NOT_PEM ? 'package.json' : c.bad === FOLDER ? 'DIR' : c.bad}${c.with ? ` with --${c.with.join(' ')}` : ''}`

describe('a bad value of an option with a rule', () => {
  it.each(CASES.map((c) => [label(c), c] as const))('%s: the library refuses it with a ConfigError naming the option the flag sets', async (_, c) => {
    const values = { [c.flag]: c.bad, ...(c.with ? { [c.with[0]]: c.with[1] } : {}) }
    const { options } = readOptions(values, {}, 0)
    const refused = await startServer({ ...options, ...(c.flag === 'log' ? {} : { log: 'silent' }) }).then(
      (server) => server.close().then(() => undefined),
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(ConfigError)
    expect(refused).toMatchObject({ option: flagNamed(c.flag).option })
  })

  it.each(CASES.map((c) => [label(c), c] as const))('%s: given as a flag, the command exits 2 naming the flag', async (_, c) => {
    const echo = flagNamed(c.flag).echo === true ? ` ${c.bad}` : ''
    // `--seed=-1`: a value that starts with a dash is given with `=`.
    const { code, stderr } = await run(['--port', '0', '--log', 'silent', `--${c.flag}=${c.bad}`, ...(c.with ? [`--${c.with[0]}`, c.with[1]] : [])], {})
    expect(code).toBe(2)
    expect(stderr).toContain(`svc-mock: --${c.flag}${echo} ${c.problem}`)
  })

  it.each(CASES.map((c) => [label(c), c] as const))('%s: given as its variable, the command exits 2 naming the variable', async (_, c) => {
    const flag = flagNamed(c.flag)
    const echo = flag.echo === true ? `=${c.bad}` : ''
    const env = { SVC_MOCK_PORT: '0', SVC_MOCK_LOG: 'silent', [flag.env]: c.bad, ...(c.with ? { [flagNamed(c.with[0]).env]: c.with[1] } : {}) }
    const { code, stderr } = await run([], env)
    expect(code).toBe(2)
    expect(stderr).toContain(`svc-mock: ${flag.env}${echo} ${c.problem}`)
  })
})
