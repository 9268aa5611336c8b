/**
 * Replacing a local CA made before the local-name constraints: one svc-mock at a time (a lock
 * folder beside the CA's folder), the old folder moved aside and deleted with its key, and the new
 * CA made as the first one was. Servers that start at the same moment all end up with the one new
 * CA: each waits for the lock, then finds the CA its forerunner made.
 */
import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, stat } from 'node:fs/promises'

/** A lock older than this was left by a svc-mock that died while holding it (making a CA takes far less). */
const STALE_LOCK_MS = 10_000
const LOCK_POLL_MS = 25

/** What `read` finds in the CA folder: the CA, and whether it carries the local-name constraints. */
interface Found<Ca> {
  readonly ca: Ca
  readonly constrained: boolean
}

/** Replaces the CA `read` finds in `folder` with one `make` makes, unless another svc-mock already did. */
export async function replaceCa<Ca extends { readonly replaced: boolean }>(folder: string, read: () => Promise<Found<Ca> | undefined>, make: () => Promise<Ca>): Promise<Ca> {
  const release = await lock(`${folder}.lock`)
  try {
    const found = await read()
    if (found?.constrained === true) return found.ca
    if (found !== undefined) {
      const retired = `${folder}.old-${randomUUID()}`
      try {
        await rename(folder, retired)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      await rm(retired, { recursive: true, force: true })
    }
    return { ...(await make()), replaced: true }
  } finally {
    await release()
  }
}

/** Takes the lock folder `path` (mkdir is atomic), waiting while another svc-mock holds it; resolves with its release. */
async function lock(path: string): Promise<() => Promise<void>> {
  for (;;) {
    try {
      await mkdir(path)
      return () => rm(path, { recursive: true, force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const since = await stat(path).then(
      (found) => Date.now() - found.mtimeMs,
      () => 0,
    )
    if (since > STALE_LOCK_MS) await rm(path, { recursive: true, force: true })
    else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS))
  }
}
