/**
 * `--export-on-exit FILE` (`exportOnExit`): the saved state written when the server stops, as a
 * temporary file beside the target then renamed over it, so a reader never sees half a document
 * and a failed write leaves the last one whole. Mode 0600: it holds the emulator's secrets. The
 * folder is checked at start, so a run does not end before anyone learns its state has nowhere to go.
 */
import { statSync } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { EmulatorCore } from '../emulator-api.js'
import { ConfigError } from '../kernel/errors.js'
import type { Logger } from '../kernel/logger.js'

/** The file's folder exists: else a ConfigError of `exportOnExit`. */
export function checkStateFile(path: string): string {
  const full = resolve(path)
  let folder: boolean
  try {
    folder = statSync(dirname(full)).isDirectory()
  } catch {
    folder = false
  }
  if (!folder) throw new ConfigError('exportOnExit', `names a file in a folder that does not exist (${dirname(full)})`, { got: path })
  return full
}

/** Writes the document to `path` atomically (a temporary file, then a rename). */
export async function writeStateFile(path: string, document: object): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 })
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

/** Writes the emulator's saved state to `file`; a failure is logged, and returned so that closing still ends. */
export async function saveOnExit(emulator: EmulatorCore, file: string, logger: Logger): Promise<Error | undefined> {
  try {
    await writeStateFile(file, await emulator.exportState())
    logger.info(`wrote the saved state to ${file}`)
    return undefined
  } catch (error) {
    logger.error(`could not write the saved state to ${file}`, error)
    return error instanceof Error ? error : new Error(String(error))
  }
}
