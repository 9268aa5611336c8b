/** The build's entry for the defaults snapshot (src/defaults.ts): `npm run build` calls `writePrecompiled()`. */
import { writeDefaultsSnapshot } from './defaults.js'

/** Validates the default fixtures and built-in scenarios and writes the snapshot; returns its path. */
export async function writePrecompiled(): Promise<string> {
  return writeDefaultsSnapshot()
}
