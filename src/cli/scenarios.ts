/**
 * `svc-mock scenarios`: lists the failure scenarios of a fresh emulator (built-in and from
 * --scenarios folders), each with its parameters, defaults and what it does; one JSON object a
 * scenario with `--log json`.
 */
import { createLogger } from '../kernel/logger.js'
import type { CliIo } from './io.js'
import { type CliOptions, emulatorOptions } from './options.js'

/** Prints the catalogue; the emulator is built only to read it, and closed again. */
export async function listScenarios(options: CliOptions, io: CliIo): Promise<number> {
  // The listing is printed in the log format (checked as the logger checks it); the emulator says nothing.
  const { format } = createLogger(options.log)
  const { buildEmulator } = await import('../emulator.js')
  const emulator = await buildEmulator(emulatorOptions(options, createLogger('silent')))
  const listing = emulator.scenarios.list()
  if (format === 'json') {
    for (const scenario of listing) {
      io.out(JSON.stringify({ event: 'scenario', name: scenario.name, description: scenario.description, params: scenario.params, active: scenario.active }))
    }
  } else if (format === 'pretty') {
    const lines: string[] = []
    for (const scenario of listing) {
      const params = Object.entries(scenario.params)
        .map(([key, spec]) => `${key}=${spec.default === undefined ? `<${spec.type}>` : String(spec.default)}`)
        .join(',')
      lines.push(`${scenario.name}${params ? `:${params}` : ''}${scenario.active ? '  (on)' : ''}`)
      lines.push(...wrap(scenario.description, 76).map((line) => `    ${line}`))
      lines.push('')
    }
    lines.push('Switch one on: svc-mock --scenario NAME[:key=value,...], the x-svc-mock-scenario header,')
    lines.push('or POST /__svc-mock/scenarios/NAME. See docs/scenarios.md.')
    io.out(lines.join('\n'))
  }
  await emulator.close()
  return 0
}

/** `text` broken between words into lines of at most `width` characters (a longer word keeps a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + word.length + 1 > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}
