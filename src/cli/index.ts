/**
 * The `svc-mock` command's door. `svc-mock --version` answers at once; anything else reads the
 * table of flags, which every domain's module contributes to, and so loads them (main.ts).
 */
import type { CliIo } from './io.js'
import { processIo } from './io.js'
import { VERSION } from '../version.js'

export type { CliIo } from './io.js'
export { processIo } from './io.js'

/** Runs the command; resolves with the exit code once it is done (for the server: on shutdown). */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.out(VERSION)
    return 0
  }
  // verify reads flags of its own (src/verify/flags.ts), so it never loads the server's table.
  if (argv[0] === 'verify' || (argv[0] === 'help' && argv[1] === 'verify')) return await (await import('../verify/index.js')).verify(argv[0] === 'verify' ? argv.slice(1) : ['--help'], io)
  return await (await import('./main.js')).main(argv, io)
}
