/**
 * The svc-mock command as the CLI tests run it: `bin/svc-mock.js` in a child process of the test's
 * Node.js, its output collected. Every child is tracked, and `killStarted` (each file's afterEach)
 * ends those still running, so no test leaves a server behind. `runMain` runs the command's
 * `main()` in the test's process instead, for the many answers that end before anything serves.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { main } from '../../src/cli/index.js'

export const BIN = fileURLToPath(new URL('../../bin/svc-mock.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

const children = new Set<ChildProcess>()

/** Tracks a child process of the test's own (a wrapper around svc-mock), so that `killStarted` ends it too. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child)
  return child
}

/** Spawns `svc-mock ARGS` with the test's environment plus `env` (a value of undefined removes the variable). */
export function spawnCli(args: readonly string[], env: Record<string, string | undefined> = {}): ChildProcess & { stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  return child
}

/** Runs `svc-mock ARGS` to its end. */
export function runCli(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawnCli(args, env)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * Runs `svc-mock ARGS` through the command's `main()` in this process, with the test's environment
 * plus `env`: the exit code the bin sets and the lines it writes. Only for arguments that end the
 * command before it serves (help, the version, a usage or file error): one that serves would
 * resolve only once the server stops.
 */
export async function runMain(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await main(args, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`), env: { ...process.env, ...env } })
  return { code, stdout, stderr }
}

/** Ends every child still running (SIGKILL) and forgets them all. */
export function killStarted(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  children.clear()
}
