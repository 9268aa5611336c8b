// The build: `tsc` checks the code and writes the type declarations (dist/types/), then esbuild
// bundles the runtime, one file per entry point (dist/index.js, msw.js, server.js, vitest.js,
// cli.js, json-schemas.js) with shared chunks beside them, then writes dist/precompiled.json, the
// defaults parsed and generated once (src/precompile.ts). Bundling tree-shakes the dependencies'
// barrel files and turns hundreds of module loads into a few, which is most of svc-mock's start-up
// and of what every test file pays (bench/README.md). msw and vitest stay outside: they are the
// consumer's. Source maps carry their sources, so they point at code that is shipped.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
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
// The command once more, as one CommonJS file (dist/cli.cjs, everything it may load inside): on
// Node.js < 22.1, which has no compile cache for ES modules (module.enableCompileCache), the bin
// compiles this file through node:vm with a V8 code cache kept between runs, which takes about a
// fifth off the cold start. Newer Node.js versions run dist/cli.js with Node's own cache.
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  // faker (half a megabyte, needed only by fixtures that generate more elements than the build's
  // snapshot holds) stays out, required from node_modules when it is needed (Node.js >= 20.19
  // requires an ES module without a warning). No import() is left: code compiled through node:vm
  // could only run one behind an experimental flag.
  external: ['msw', 'msw/*', 'vitest', 'vitest/*', '@faker-js/faker', '@faker-js/faker/*'],
  supported: { 'dynamic-import': false },
  // The code finds its own package from its location: the same URL an ES module would have.
  define: { 'import.meta.url': '__svcMockModuleUrl' },
  banner: { js: 'const __svcMockModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  sourcemap: true,
  sourcesContent: true,
  legalComments: 'linked',
  logLevel: 'warning',
})
// esbuild escapes every non-ASCII character in code, not in the comments it keeps: escaped there
// too, the file is ASCII, which the bin reads as one-byte text without decoding UTF-8.
const cjs = new URL('../dist/cli.cjs', import.meta.url)
writeFileSync(cjs, readFileSync(cjs, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
// The defaults, parsed and generated once here rather than at every start (src/precompile.ts).
const { writePrecompiled } = await import(new URL('../dist/precompile.js', import.meta.url).href)
await writePrecompiled()
