/**
 * Which OAuth client a request comes from, read without authenticating it: the client of an
 * `Authorization: Basic` header, the `client_id` claim of a Bearer JWT, or a `client_id`
 * parameter (query string or form body). Used only to match scenarios targeted at one client
 * (`--scenario token-slow:client=ci-client`), so a scenario can pick its requests before the
 * route runs; the route itself still authenticates everything.
 */

import type { TargetSource } from '../../kernel/domain.js'

const BASIC = /^basic\s+/i
const BEARER = /^bearer\s+/i

export async function requestClientId(request: TargetSource): Promise<string | undefined> {
  const { headers, url, body } = request
  const header = headers.get('authorization')?.trim() ?? ''
  if (BASIC.test(header)) {
    try {
      const decoded = Buffer.from(header.replace(BASIC, ''), 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon > 0) return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '))
    } catch {
      return undefined
    }
  }
  if (BEARER.test(header)) {
    const parts = header.replace(BEARER, '').split('.')
    if (parts.length === 3 && parts[1]) {
      try {
        const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { client_id?: unknown }
        if (typeof claims.client_id === 'string') return claims.client_id
      } catch {
        return undefined
      }
    }
  }
  const fromQuery = url.searchParams.get('client_id')
  if (fromQuery) return fromQuery
  const contentType = headers.get('content-type') ?? ''
  const type = contentType.toLowerCase()
  if (!body || !(type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data'))) return undefined
  try {
    // The body keeps what it read: the route reads it again from memory.
    const form = await body.formData(contentType)
    const value = form.get('client_id')
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}
