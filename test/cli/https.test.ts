/**
 * The `svc-mock` command over HTTPS, run as a user runs it (the built bin in a child process):
 * `svc-mock ca`, `--https` with the CA's path in the banner and the JSON listening line, a
 * certificate of your own with `--tls-cert`/`--tls-key` and exit 2 for a bad one, a CA of an
 * older svc-mock replaced, a public URL the CA cannot vouch for refused, and `svc-mock exec
 * --https` giving its command one trust bundle that keeps what the environment trusted before.
 * The help and the refusals, which end before anything serves, run the command's `main()` in this
 * process (`runMain`); test/cli/command.test.ts checks the bin answers such errors alike.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, fetch as fetchWith } from 'undici'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { makeAuthority, makeServerCertificate } from '../../src/tls/certificates.js'
import { killStarted, runCli, runMain, spawnCli } from '../support/cli.js'
import { writeUnconstrainedCa } from '../support/old-ca.js'

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-cli-https-'))
afterEach(killStarted)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const freshCaDir = (): string => join(scratch, `ca-${++folders}`)



/** Starts the server; resolves with its standard output once it has printed `until` (default: the JSON listening line). */
function start(args: string[], env: Record<string, string> = {}, until = '"event":"listening"'): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['--port', '0', ...args], env)
    let output = ''
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString()
      if (output.includes(until) && output.endsWith('\n')) resolve({ child, output })
    })
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('exit', (code) => reject(new Error(`svc-mock exited with ${String(code)} before listening:\n${output}`)))
  })
}

/** The variables exec points at its trust bundle. */
const TRUST = ['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE', 'CURL_CA_BUNDLE']

const trusting = (caFile: string): Agent => new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } })

describe('svc-mock ca', () => {
  it('makes the CA when there is none and prints its path alone on standard output, then the same path again', async () => {
    const dir = freshCaDir()
    const first = await runCli(['ca'], { SVC_MOCK_CA_DIR: dir })
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(`${join(dir, 'ca.pem')}\n`)
    expect(first.stderr).toContain('made a local certificate authority')
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toContain('BEGIN CERTIFICATE')
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600)
    const second = await runCli(['ca'], { SVC_MOCK_CA_DIR: dir })
    expect(second).toEqual({ code: 0, stdout: `${join(dir, 'ca.pem')}\n`, stderr: '' })
  })

  it('with --log json, says it as one JSON object', async () => {
    const dir = freshCaDir()
    const result = await runCli(['ca', '--log', 'json'], { SVC_MOCK_CA_DIR: dir })
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ event: 'ca', caFile: join(dir, 'ca.pem'), created: true })
  })

  it('is in the help, with --https, --tls-cert and --tls-key and their variables', async () => {
    const help = (await runMain(['--help'])).stdout
    expect(help).toContain('svc-mock ca ')
    expect(help).toMatch(/--https [^\n]*(\n {24,}[^\n]*)*\[SVC_MOCK_HTTPS=true\]/)
    expect(help).toMatch(/--tls-cert FILE .*\[SVC_MOCK_TLS_CERT\]/)
    expect(help).toMatch(/--tls-key FILE .*\[SVC_MOCK_TLS_KEY\]/)
    expect((await runMain(['help', 'ca'])).stdout).toContain('REQUESTS_CA_BUNDLE=$(npx svc-mock ca)')
  })
})

describe('svc-mock --https', () => {
  it('--log json: the listening line has https addresses and the CA file, which a client trusts to call the API', async () => {
    const dir = freshCaDir()
    const { child, output } = await start(['--https', '--log', 'json'], { SVC_MOCK_CA_DIR: dir })
    const event = JSON.parse(output.split('\n')[0] ?? '') as { url: string; caFile: string; urls: Record<string, string> }
    expect(event.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(event.caFile).toBe(join(dir, 'ca.pem'))
    expect(Object.values(event.urls).every((url) => url === event.url)).toBe(true)
    const answer = await fetchWith(`${event.url}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions`, {
      headers: { authorization: 'AppKey svcmock-app-key' },
      dispatcher: trusting(event.caFile),
    })
    expect(answer.status).toBe(200)
    child.kill('SIGTERM')
  })

  it('the banner shows https:// addresses and the CA to trust, and its curl lines pass --cacert', async () => {
    const dir = freshCaDir()
    const { child, output } = await start([], { SVC_MOCK_CA_DIR: dir, SVC_MOCK_HTTPS: 'true' }, 'Ctrl+C stops.')
    const caFile = join(dir, 'ca.pem')
    expect(output).toMatch(/listening on https:\/\/127\.0\.0\.1:\d+/)
    expect(output).toMatch(/OAuth \(\{auth_url\}\) +https:\/\/127\.0\.0\.1:\d+\/oauth2\/token/)
    expect(output).toContain(`TLS                     signed by svc-mock's local CA; trust ${caFile}`)
    expect(output).toMatch(/\/__svc-mock\/ca\.pem/)
    expect(output).toContain(`curl --cacert ${caFile} -u ci-client:ci-secret`)
    child.kill('SIGTERM')
  })
})

describe('a local CA made by an older svc-mock, without name constraints', () => {
  it('svc-mock ca replaces it, saying so in one line on standard error, and prints the new one\'s path', async () => {
    const dir = freshCaDir()
    const old = await writeUnconstrainedCa(dir)
    const result = await runCli(['ca'], { SVC_MOCK_CA_DIR: dir })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`${join(dir, 'ca.pem')}\n`)
    expect(result.stderr).toMatch(/^svc-mock: made a new local certificate authority in \S+ca\.pem: the one there was made by an older svc-mock and could vouch for any name; clients that trusted it must trust the new one\n$/)
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).not.toBe(old)
    expect(await runCli(['ca'], { SVC_MOCK_CA_DIR: dir })).toEqual({ code: 0, stdout: `${join(dir, 'ca.pem')}\n`, stderr: '' })
  })

  it('--https replaces it, saying so in one line, and presents a certificate the new CA signed', async () => {
    const dir = freshCaDir()
    await writeUnconstrainedCa(dir)
    const child = spawnCli(['--port', '0', '--https', '--log', 'json'], { SVC_MOCK_CA_DIR: dir })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    const listening = await new Promise<{ url: string; caFile: string }>((resolve) => {
      let stdout = ''
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0] ?? '') as { url: string; caFile: string })
      })
    })
    expect((await fetchWith(`${listening.url}/__svc-mock/health`, { dispatcher: trusting(listening.caFile) })).status).toBe(200)
    child.kill('SIGTERM')
    await exited
    const warnings = stderr.trim().split('\n').map((line) => JSON.parse(line) as { level: string; msg: string })
    expect(warnings).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/^made a new local CA in \S+ca\.pem: the one there was made by an older svc-mock/) })])
  })
})

describe('--https with a name the local CA cannot vouch for', () => {
  it('exits 2 naming --public-url (or its variable, or --host) and saying to use --tls-cert/--tls-key', async () => {
    const flag = await runMain(['--https', '--public-url', 'https://svc-mock.example.com:8443'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain(
      "--public-url names svc-mock.example.com, which svc-mock's local CA cannot vouch for (localhost, *.localhost, *.test, *.internal, 127.0.0.0/8 and ::1 only): serve a certificate of your own for it with --tls-cert FILE (or SVC_MOCK_TLS_CERT) and --tls-key FILE (or SVC_MOCK_TLS_KEY)",
    )
    const variable = await runMain(['--https'], { SVC_MOCK_PUBLIC_URL: 'https://svc-mock.example.com' })
    expect(variable.code).toBe(2)
    expect(variable.stderr).toContain("SVC_MOCK_PUBLIC_URL names svc-mock.example.com, which svc-mock's local CA cannot vouch for")
    const host = await runMain(['--https', '--host', '192.0.2.7'])
    expect(host.code).toBe(2)
    expect(host.stderr).toContain("--host names 192.0.2.7, which svc-mock's local CA cannot vouch for")
  })
})

describe('a certificate of your own', () => {
  const pair = async (): Promise<{ cert: string; key: string; ca: string }> => {
    const authority = await makeAuthority()
    const leaf = await makeServerCertificate(authority, ['localhost', '127.0.0.1'])
    const dir = mkdtempSync(join(scratch, 'own-'))
    writeFileSync(join(dir, 'cert.pem'), leaf.cert)
    writeFileSync(join(dir, 'key.pem'), leaf.key)
    writeFileSync(join(dir, 'issuer.pem'), authority.cert)
    return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), ca: join(dir, 'issuer.pem') }
  }

  it('--tls-cert and --tls-key serve it over HTTPS (no --https needed), with no CA file in the listening line', async () => {
    const own = await pair()
    const { child, output } = await start(['--tls-cert', own.cert, '--tls-key', own.key, '--log', 'json'])
    const event = JSON.parse(output.split('\n')[0] ?? '') as { url: string; caFile?: string }
    expect(event.url).toMatch(/^https:\/\//)
    expect(event.caFile).toBeUndefined()
    expect((await fetchWith(`${event.url}/__svc-mock/health`, { dispatcher: trusting(own.ca) })).status).toBe(200)
    child.kill('SIGTERM')
  })

  it('exits 2 naming the flag or variable: a missing file, a certificate without its key, a key that is not the certificate\'s, a bad SVC_MOCK_HTTPS', async () => {
    const own = await pair()
    const missing = await runMain(['--tls-cert', join(scratch, 'nope.pem'), '--tls-key', own.key])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`--tls-cert ${join(scratch, 'nope.pem')} cannot be read (no such file)`)
    const alone = await runMain(['--tls-cert', own.cert])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain(`--tls-cert ${own.cert} needs --tls-key FILE (or SVC_MOCK_TLS_KEY) too (the certificate's private key)`)
    const fromEnv = await runMain([], { SVC_MOCK_TLS_KEY: own.key })
    expect(fromEnv.code).toBe(2)
    expect(fromEnv.stderr).toContain(`SVC_MOCK_TLS_KEY=${own.key} needs --tls-cert FILE (or SVC_MOCK_TLS_CERT) too (the certificate that goes with the key)`)
    const other = await pair()
    const wrongKey = await runMain(['--tls-cert', own.cert, '--tls-key', other.key])
    expect(wrongKey.code).toBe(2)
    expect(wrongKey.stderr).toContain(`--tls-key ${other.key} is not the private key of the certificate in --tls-cert ${own.cert}`)
    const notPem = await runMain(['--tls-cert', own.key, '--tls-key', own.key])
    expect(notPem.code).toBe(2)
    expect(notPem.stderr).toContain(`--tls-cert ${own.key} is not a PEM certificate`)
    const badVariable = await runMain([], { SVC_MOCK_HTTPS: 'yes' })
    expect(badVariable.code).toBe(2)
    expect(badVariable.stderr).toContain('SVC_MOCK_HTTPS must be true or false, got "yes"')
  })
})

describe('svc-mock exec --https', () => {
  const script = `
    const env = process.env
    const health = await fetch(env.SVC_MOCK_URL + '/__svc-mock/health').then((r) => r.json())
    console.log(JSON.stringify({ health: health.status, url: env.SVC_MOCK_URL, base: env.SVC_MOCK_BASE_URL, caFile: env.SVC_MOCK_CA_FILE, trust: ${JSON.stringify(TRUST)}.map((name) => env[name]) }))
  `
  const certificates = (pem: string): string[] => [...pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ''))

  it('gives the command https addresses and SVC_MOCK_CA_FILE, and points the four trust variables at one bundle of the CA and the system\'s roots, removed when it ends', async () => {
    const dir = freshCaDir()
    const unset = Object.fromEntries(TRUST.map((name) => [name, undefined]))
    // Node.js calls svc-mock and prints what it was given, then the bundle is shown.
    const command = '"$1" --input-type=module -e "$0" && cat "$SSL_CERT_FILE"'
    const result = await runCli(['exec', '--https', '--log', 'silent', '--', 'sh', '-c', command, script, process.execPath], { SVC_MOCK_CA_DIR: dir, ...unset })
    expect(result.code).toBe(0)
    const [first = '', ...rest] = result.stdout.split('\n')
    const seen = JSON.parse(first) as { health: string; url: string; base: string; caFile: string; trust: string[] }
    const caFile = join(dir, 'ca.pem')
    expect(seen).toMatchObject({ health: 'ok', caFile })
    expect(seen.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(seen.base).toBe(seen.url)
    const bundleFile = seen.trust[0] ?? ''
    expect(seen.trust).toEqual(TRUST.map(() => bundleFile))
    const bundle = certificates(rest.join('\n'))
    expect(bundle[0]).toBe(certificates(readFileSync(caFile, 'utf8'))[0])
    expect(bundle.length).toBeGreaterThan(100)
    expect(existsSync(bundleFile)).toBe(false)
  })

  it('a CI image that set them keeps what they named and trusts svc-mock too: curl reaches it with no flag; a file that cannot be read is said and left out', async () => {
    const dir = freshCaDir()
    const corporate = join(scratch, 'corporate.pem')
    const certifi = join(scratch, 'certifi.pem')
    writeFileSync(corporate, (await makeAuthority()).cert)
    writeFileSync(certifi, `${(await makeAuthority()).cert}\n${(await makeAuthority()).cert}`)
    const env = { SVC_MOCK_CA_DIR: dir, NODE_EXTRA_CA_CERTS: corporate, REQUESTS_CA_BUNDLE: certifi, SSL_CERT_FILE: certifi, CURL_CA_BUNDLE: join(scratch, 'gone.pem') }
    const command = 'curl -sS --fail "$SVC_MOCK_URL/__svc-mock/health" && cat "$CURL_CA_BUNDLE"'
    const result = await runCli(['exec', '--https', '--', 'sh', '-c', command], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^\{"status":"ok"/)
    const bundle = certificates(result.stdout)
    const wanted = [readFileSync(join(dir, 'ca.pem'), 'utf8'), readFileSync(corporate, 'utf8'), readFileSync(certifi, 'utf8')].flatMap(certificates)
    expect(bundle.slice(0, 4)).toEqual(wanted)
    // CURL_CA_BUNDLE's file is gone, so its place is taken by the system's roots.
    expect(bundle.length).toBeGreaterThan(100)
    expect(result.stderr).toContain(`warning: trust bundle: CURL_CA_BUNDLE (${join(scratch, 'gone.pem')}) cannot be read: ENOENT; left out`)
  })
})
