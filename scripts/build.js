// The build: `tsc` checks the code and writes the type declarations (dist/types/), then esbuild
// bundles the runtime, one file per entry point (dist/index.js, msw.js, server.js, vitest.js,
// cli.js, json-schemas.js) with shared chunks beside them, then writes dist/precompiled.json, the
// defaults parsed and generated once (src/precompile.ts). Bundling tree-shakes the dependencies'
// barrel files and turns hundreds of module loads into a few, which is most of svc-mock's start-up
// and of what every test file pays (bench/README.md). msw and vitest stay outside: they are the
// consumer's. Source maps carry their sources, so they point at code that is shipped.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true })
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
await build({
  absWorkingDir: root,
  entryPoints: {
    index: 'src/index.ts',
    msw: 'src/adapters/msw.ts',
    server: 'src/adapters/server.ts',
    vitest: 'src/adapters/vitest.ts',
    cli: 'src/cli.ts',
    'json-schemas': 'src/json-schemas.ts',
    precompile: 'src/precompile.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  chunkNames: 'chunk-[hash]',
  external: ['msw', 'msw/*', 'vitest', 'vitest/*'],
  sourcemap: true,
  sourcesContent: true,
  legalComments: 'linked',
  logLevel: 'warning',
})
// The defaults, parsed and generated once here rather than at every start (src/precompile.ts).
const { writePrecompiled } = await import(new URL('../dist/precompile.js', import.meta.url).href)
await writePrecompiled()
