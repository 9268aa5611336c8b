// The build: `tsc` checks the code and writes the type declarations (dist/types/); esbuild bundles
// the runtime as ES modules, one file per entry point of the package (dist/index.js, server.js,
// msw.js, vitest.js) sharing chunks, so a process that imports several entry points holds one
// copy of each module. A process that imports nothing else gets one file holding every module it
// may load (those the sources load with `import()` are still evaluated only when first asked
// for): the command's dist/cli.js, without comments or indentation, and json-schemas.js and
// defaults.js for the scripts; fewer entry points also split the package's chunks less
// (docs/decisions/cli-bundle.md has the measurements). msw and vitest stay outside: they are the
// consumer's. The package's chunks have source maps that carry their sources (src/ is not
// shipped). Last it writes dist/defaults.json, the default fixtures and built-in scenarios
// validated once (src/defaults.ts).
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
// The certificate libraries load from node_modules (the one copy of the ASN.1 schemas they share),
// and only when HTTPS or the local CA is asked for.
const EXTERNAL = ['msw', 'msw/*', 'vitest', 'vitest/*', '@peculiar/x509', '@peculiar/asn1-x509', '@peculiar/asn1-schema', 'reflect-metadata']
const COMMON = { absWorkingDir: root, outdir: 'dist', bundle: true, format: 'esm', platform: 'node', target: 'node20.19', external: EXTERNAL, sourcemap: true, sourcesContent: true, legalComments: 'linked', logLevel: 'warning' }

await build({
  ...COMMON,
  entryPoints: {
    index: 'src/index.ts',
    server: 'src/adapters/server.ts',
    msw: 'src/adapters/msw.ts',
    vitest: 'src/adapters/vitest.ts',
  },
  splitting: true,
  chunkNames: 'chunk-[hash]',
})
await build({ ...COMMON, entryPoints: { cli: 'src/cli/index.ts' }, splitting: false, minifyWhitespace: true, sourcemap: false })
// The scripts' entry points, each a process of its own too.
await build({ ...COMMON, entryPoints: { 'json-schemas': 'src/json-schemas.ts', defaults: 'src/defaults.ts' }, splitting: false, sourcemap: false })

const { writeDefaultsSnapshot } = await import(new URL('../dist/defaults.js', import.meta.url).href)
writeDefaultsSnapshot()
