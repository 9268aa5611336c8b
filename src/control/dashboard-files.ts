/**
 * The dashboard's files, read from the package's `dashboard/` folder and answered (control/dashboard.ts
 * imports this module with the first request for one). Each answer carries an ETag and
 * `Cache-Control: no-cache`, so a browser revalidates (304) instead of showing a stale page after
 * an upgrade; the page gets a Content-Security-Policy that allows only its own origin.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { NotFoundError } from '../kernel/errors.js'
import { packagePath } from '../kernel/package-root.js'
import { empty, headersOf, type Reply, reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'

const DASHBOARD_DIR = `${packagePath('dashboard')}/`

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
}

const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

interface LoadedFile {
  readonly bytes: Uint8Array
  readonly etag: string
}

// Read once per process: the package's files do not change while it runs.
const cache = new Map<string, Promise<LoadedFile | undefined>>()

function load(name: string): Promise<LoadedFile | undefined> {
  let file = cache.get(name)
  if (!file) {
    file = readFile(`${DASHBOARD_DIR}${name}`).then(
      (buffer) => {
        const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
        return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` }
      },
      (error: unknown) => {
        cache.delete(name)
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      },
    )
    cache.set(name, file)
  }
  return file
}

/** Answers the dashboard's file `name` (404 for one it does not have). */
export async function serve(ctx: RequestContext, name: string): Promise<Reply> {
  const extension = name.slice(name.lastIndexOf('.') + 1)
  const type = TYPES[extension]
  const file = type === undefined ? undefined : await load(name)
  if (!file || type === undefined) throw new NotFoundError(`The dashboard has no file "${name}".`, 'file')
  const headers = headersOf({
    etag: file.etag,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  })
  if (extension === 'html') {
    headers.set('content-security-policy', PAGE_POLICY)
    headers.set('referrer-policy', 'no-referrer')
  }
  if (matchesEtag(ctx.headers.get('if-none-match'), file.etag)) return empty(304, headers)
  headers.set('content-type', type)
  return reply(file.bytes, { headers })
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value === etag || value === `W/${etag}`
  })
}
