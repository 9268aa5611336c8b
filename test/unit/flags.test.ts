/**
 * The command's one table of flags: every flag a module declares is a flag parseArgs knows, an
 * entry of the help with its variable, and an option it sets; no two share a name or a variable;
 * each domain's flags reach the table through its module alone; and cli/ declares none itself.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { FLAGS, parse } from '../../src/cli/flags.js'
import { helpText } from '../../src/cli/help.js'
import { readOptions } from '../../src/cli/options.js'
import { DOMAINS } from '../../src/domains.js'

const CLI = new URL('../../src/cli/', import.meta.url)
const FILE = fileURLToPath(new URL('../../package.json', import.meta.url))

/** A flag's entry of the help: its first line and the lines under it, up to the next flag. */
function entryOf(help: string, name: string): string {
  const lines = help.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`  --${name} `) || line === `  --${name}`)
  if (start === -1) return ''
  const end = lines.findIndex((line, i) => i > start && /^ {2}-/.test(line))
  return lines.slice(start, end === -1 ? undefined : end).join('\n')
}

/** An option's value at a path (`clock.mode`). */
function at(options: object, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), options)
}

describe('the table of flags', () => {
  const help = helpText('serve')

  it.each(FLAGS.map((flag) => [flag.name, flag] as const))('--%s has an entry in the help that names its variable', (name, flag) => {
    const entry = entryOf(help, name)
    expect(entry).toContain(`--${name}`)
    expect(entry).toContain(`[${flag.env}`)
    if (flag.default !== undefined) expect(entry).toContain(`default ${flag.default}`)
  })

  it.each(FLAGS.map((flag) => [flag.name, flag] as const))('--%s is a flag the command reads, and it sets its option (from the flag, and from its variable)', (name, flag) => {
    // A flag that names a file is given one that exists.
    const text = flag.kind === 'switch' ? undefined : flag.placeholder === 'FILE' ? FILE : (flag.example ?? 'x')
    const { values } = parse(text === undefined ? [`--${name}`] : [`--${name}`, text])
    expect(values[name]).toBeDefined()
    const fromFlag = readOptions(values, {}, undefined).options
    const fromVariable = readOptions({}, { [flag.env]: text ?? String(flag.sets ?? true) }, undefined).options
    expect(at(fromFlag, flag.option)).toBeDefined()
    expect(at(fromVariable, flag.option)).toEqual(at(fromFlag, flag.option))
  })

  it('no two flags share a name or a variable, and every variable is SVC_MOCK_ and upper case', () => {
    const names = [...FLAGS.map((flag) => flag.name), 'help', 'version']
    const variables = FLAGS.map((flag) => flag.env)
    expect(new Set(names).size).toBe(names.length)
    expect(new Set(variables).size).toBe(variables.length)
    for (const variable of variables) expect(variable).toMatch(/^SVC_MOCK_[A-Z_]+$/)
  })

  it("each domain's flags are the ones its module declares, all of them in the table", () => {
    const declared = DOMAINS.flatMap((module) => (module.flags ?? []).map((flag) => flag.name))
    expect(declared.length).toBeGreaterThan(0)
    for (const name of declared) expect(FLAGS.map((flag) => flag.name)).toContain(name)
  })

  it('cli/ names the variable of no option: each comes from the module that declares the flag', () => {
    // The variables cli/ may name are what exec hands its command, and SVC_MOCK_CA_DIR (the CA's folder, read by tls/).
    const exec = new Set(['SVC_MOCK_URL', 'SVC_MOCK_AUTH_URL', 'SVC_MOCK_BASE_URL', 'SVC_MOCK_WEBHOOK_URL', 'SVC_MOCK_CA_FILE', 'SVC_MOCK_CA_DIR'])
    const named = readdirSync(CLI)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => {
        const code = readFileSync(new URL(file, CLI), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
        return [...code.matchAll(/SVC_MOCK_[A-Z_]+/g)].map((m) => `${file}: ${m[0]}`)
      })
      .filter((hit) => !exec.has(hit.split(': ')[1] ?? ''))
    expect(named).toEqual([])
  })
})
