// The package.json that `npm pack` and `npm publish` put in the tarball carries no install-time
// script: a clone builds through `prepare`, but the package ships dist/ built and not the build,
// and npm warns about every install-time script of a package it installs (as typicode's pinst
// does for postinstall). `prepack` runs `strip`: package.json's bytes are kept aside, and it is
// written without those scripts; `postpack` runs `restore`, which puts the kept bytes back, so the
// working tree's package.json is byte for byte what it was. A pack that died between the two
// leaves the kept copy, which the next `strip` or `restore` uses.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const manifest = `${root}package.json`
const kept = `${root}.package.json.packing`
const INSTALL_TIME = ['preinstall', 'install', 'postinstall', 'prepare']

const [, , command] = process.argv
if (command === 'strip') {
  const original = existsSync(kept) ? readFileSync(kept, 'utf8') : readFileSync(manifest, 'utf8')
  writeFileSync(kept, original)
  const json = JSON.parse(original)
  for (const name of INSTALL_TIME) delete json.scripts?.[name]
  writeFileSync(manifest, `${JSON.stringify(json, null, 2)}\n`)
} else if (command === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest)
} else {
  console.error('usage: node scripts/pack-manifest.js strip|restore')
  process.exit(2)
}
