// The build: `tsc` checks the code and writes the type declarations (dist/types/), then esbuild
// bundles the runtime: the core (src/core.ts, everything the package's entry points hand out) and
// the command as ES modules with shared chunks (dist/core.js, cli.js, json-schemas.js,
// precompile.js), the core and the command once more as one CommonJS file each (dist/core.cjs,
// cli.cjs: run with a V8 code cache, src/code-cache.ts), the loader (dist/core-loader.js), and the
// public entry points (dist/index.js, server.js, msw.js, vitest.js), which take every value from
// the loader's one core; then it writes dist/precompiled.json, the defaults parsed and generated
// once (src/precompile.ts). Bundling tree-shakes the dependencies' barrel files and turns hundreds
// of module loads into a few, which is most of svc-mock's start-up and of what every test file
// pays (bench/README.md). msw and vitest stay outside: they are the consumer's. Source maps carry
// their sources, so they point at code that is shipped.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true })
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
// The msw adapter is the consumer's msw's business: the core loads it with import('./msw.js'),
// which stays an import of the built dist/msw.js.
const mswAdapterOutside = {
  name: 'msw-adapter-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\/msw\.js$/ }, (args) => (/adapters[\\/](in-process|vitest)\.ts$/.test(args.importer) ? { path: './msw.js', external: true } : undefined))
  },
}
const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  external: ['msw', 'msw/*', 'vitest', 'vitest/*'],
  sourcemap: true,
  sourcesContent: true,
  legalComments: 'linked',
  logLevel: 'warning',
}
// The core (src/core.ts) and the command as ES modules, sharing chunks.
const esm = await build({
  ...shared,
  entryPoints: { core: 'src/core.ts', cli: 'src/cli/index.ts', 'json-schemas': 'src/json-schemas.ts', precompile: 'src/precompile.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  chunkNames: 'chunk-[hash]',
  plugins: [mswAdapterOutside],
  metafile: true,
})
// The core and the command once more, each as one CommonJS file (everything it may load inside),
// which src/code-cache.ts compiles through node:vm with a V8 code cache kept between runs: the
// library's entry points load dist/core.cjs (src/core-loader.ts), and the command on Node.js <
// 22.1 runs dist/cli.cjs (newer versions run dist/cli.js with Node's own compile cache). faker
// (half a megabyte, needed only by fixtures that generate more elements than the build's snapshot
// holds) stays out, required from node_modules when it is needed (Node.js >= 20.19 requires an ES
// module without a warning). No import() is left: code compiled through node:vm can only import()
// behind an experimental flag, and not at all once it comes from a code cache.
const commonJs = {
  ...shared,
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external: [...shared.external, '@faker-js/faker', '@faker-js/faker/*'],
  supported: { 'dynamic-import': false },
  // The code finds its own package from its location: the same URL an ES module would have.
  define: { 'import.meta.url': '__svcMockModuleUrl' },
  banner: { js: 'const __svcMockModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
}
await build({ ...commonJs, entryPoints: { core: 'src/core.ts' }, plugins: [mswAdapterOutside] })
await build({ ...commonJs, entryPoints: { cli: 'src/cli/index.ts' } })
// esbuild escapes every non-ASCII character in code, not in the comments it keeps: escaped there
// too, the files are ASCII, which src/code-cache.ts reads as one-byte text without decoding UTF-8.
for (const name of ['core', 'cli']) {
  const file = new URL(`../dist/${name}.cjs`, import.meta.url)
  writeFileSync(file, readFileSync(file, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
}
// The loader and the code cache, file for file (the loader imports ./code-cache.js, ./core.cjs and
// ./core.js beside it).
await build({ ...shared, bundle: false, external: undefined, entryPoints: { 'core-loader': 'src/core-loader.ts', 'code-cache': 'src/code-cache.ts' }, outdir: 'dist', format: 'esm' })

// The public entry points take every value from the loader's one core. `svc-mock` and
// `svc-mock/server` are nothing but the core's values under their names; `svc-mock/msw` and
// `svc-mock/vitest` keep their own code (it imports msw and vitest), with every other svc-mock
// module they import replaced by the core's values.
const coreNames = Object.values(esm.metafile.outputs).find((o) => o.entryPoint === 'src/core.ts').exports
const namesOf = async (entry) => {
  const r = await build({ ...shared, entryPoints: [entry], write: false, outdir: '/tmp/unused', format: 'esm', sourcemap: false, metafile: true, plugins: [mswAdapterOutside] })
  return Object.values(r.metafile.outputs).find((o) => o.entryPoint === entry).exports
}
const fromCore = (names) => {
  const missing = names.filter((n) => !coreNames.includes(n))
  if (missing.length > 0) throw new Error(`src/core.ts does not export ${missing.join(', ')}`)
  return `import { core } from './core-loader.js'\nexport const { ${names.join(', ')} } = core\n`
}
for (const [name, entry] of [['index', 'src/index.ts'], ['server', 'src/adapters/server.ts']]) {
  writeFileSync(new URL(`../dist/${name}.js`, import.meta.url), `// svc-mock's \`${entry}\`: the values of the one core (src/core-loader.ts).\n${fromCore(await namesOf(entry))}`)
}
const coreValues = {
  name: 'core-values',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point' || args.path === './core-loader.js') return undefined
      return { path: 'core', namespace: 'core-values' }
    })
    b.onLoad({ filter: /.*/, namespace: 'core-values' }, () => ({ contents: fromCore(coreNames), resolveDir: root, loader: 'js' }))
  },
}
await build({
  ...shared,
  entryPoints: { msw: 'src/adapters/msw.ts', vitest: 'src/adapters/vitest.ts' },
  outdir: 'dist',
  format: 'esm',
  external: [...shared.external, './core-loader.js'],
  plugins: [mswAdapterOutside, coreValues],
})

// The defaults, parsed and generated once here rather than at every start (src/precompile.ts).
const { writePrecompiled } = await import(new URL('../dist/precompile.js', import.meta.url).href)
await writePrecompiled()
