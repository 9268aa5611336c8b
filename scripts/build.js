// The build: `tsc` checks the code and writes the type declarations (dist/types/); esbuild bundles
// the runtime as ES modules, one file per entry point (dist/index.js, server.js, msw.js, vitest.js,
// the command's cli.js, and json-schemas.js and defaults.js for the scripts) sharing chunks, so a
// process that imports several entry points holds one copy of each module. msw and vitest stay
// outside: they are the consumer's. Source maps carry their sources (src/ is not shipped). Last it
// writes dist/defaults.json, the default fixtures and built-in scenarios validated once (src/defaults.ts).
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
await build({
  absWorkingDir: root,
  entryPoints: {
    index: 'src/index.ts',
    server: 'src/adapters/server.ts',
    msw: 'src/adapters/msw.ts',
    vitest: 'src/adapters/vitest.ts',
    cli: 'src/cli/index.ts',
    'json-schemas': 'src/json-schemas.ts',
    defaults: 'src/defaults.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  target: 'node20.19',
  // The certificate libraries load from node_modules (the one copy of the ASN.1 schemas they share),
  // and only when HTTPS or the local CA is asked for.
  external: ['msw', 'msw/*', 'vitest', 'vitest/*', '@peculiar/x509', '@peculiar/asn1-x509', '@peculiar/asn1-schema', 'reflect-metadata'],
  sourcemap: true,
  sourcesContent: true,
  legalComments: 'linked',
  logLevel: 'warning',
})

const { writeDefaultsSnapshot } = await import(new URL('../dist/defaults.js', import.meta.url).href)
writeDefaultsSnapshot()
