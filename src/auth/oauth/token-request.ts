/**
 * Reading a token request: parameters from the query string and from an
 * `application/x-www-form-urlencoded` or `multipart/form-data` body (the platform's examples use
 * all three), with RFC 6749's rules: a parameter sent twice is an error, an empty one counts as
 * absent, and a secret never counts from the query string (section 2.3.1; the description's
 * "credentials in the URL … are ignored"), so code that leaks one into URLs fails here first.
 * The parsed form is what the journal records (secrets redacted there).
 */
import { PayloadTooLargeError } from '../../kernel/errors.js'
import type { RequestBody } from '../../kernel/request.js'
import type { RequestContext } from '../../kernel/route.js'
import { invalidRequest } from './wire.js'

/** Parameters that are secrets: read from the body only, ignored in the query string. */
export const QUERY_IGNORED: ReadonlySet<string> = new Set(['client_secret', 'code', 'refresh_token', 'device_code', 'code_verifier'])

export interface TokenParams extends ReadonlyMap<string, string> {
  /** The secrets the query string carried, which did not count. */
  readonly ignoredInQuery: ReadonlySet<string>
}

/** Said after "… is missing" when the parameter came only in the query string, where it does not count. */
export function ignoredHint(params: TokenParams, name: string): string {
  return params.ignoredInQuery.has(name) ? ` A ${name} in the query string does not count (RFC 6749 section 2.3.1): send it in the body.` : ''
}

export async function readTokenParams(ctx: RequestContext): Promise<TokenParams> {
  const params = new Map<string, string>()
  const add = (name: string, value: string, where: string): void => {
    if (params.has(name)) {
      throw invalidRequest(`The parameter "${name}" is sent more than once (${where}). Send each parameter once.`)
    }
    if (value !== '') params.set(name, value)
  }
  const seenInQuery = new Set<string>()
  const ignoredInQuery = new Set<string>()
  // `searchParams` parses the query on first read: a token request rarely has one.
  if (ctx.url.search !== '') {
    for (const [name, value] of ctx.url.searchParams) {
      if (QUERY_IGNORED.has(name)) {
        ignoredInQuery.add(name)
        continue
      }
      if (seenInQuery.has(name)) throw invalidRequest(`The parameter "${name}" is sent more than once (query string). Send each parameter once.`)
      seenInQuery.add(name)
      add(name, value, 'query string')
    }
  }

  const header = ctx.headers.get('content-type') ?? ''
  const raw = ctx.body ? await readBody(ctx.body, header) : []
  for (const [name, value] of raw) add(name, value, seenInQuery.has(name) ? 'in the query string and the body' : 'body')
  ctx.journalBody = Object.fromEntries(params)
  return Object.assign(params, { ignoredInQuery })
}

async function readBody(body: RequestBody, header: string): Promise<Array<[string, string]>> {
  const type = header.toLowerCase()
  if (type.startsWith('multipart/form-data')) {
    let form: FormData
    try {
      form = await body.formData(header)
    } catch (error) {
      if (error instanceof PayloadTooLargeError) throw error
      throw invalidRequest('The multipart/form-data body cannot be read. Check the boundary and the parts.')
    }
    const out: Array<[string, string]> = []
    for (const [name, value] of form) {
      if (typeof value !== 'string') throw invalidRequest(`The parameter "${name}" is a file; token parameters are text fields.`)
      out.push([name, value])
    }
    return out
  }
  const text = await body.text()
  if (text === '') return []
  if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
    const seen = new Set<string>()
    const out: Array<[string, string]> = []
    for (const [name, value] of new URLSearchParams(text)) {
      if (seen.has(name)) throw invalidRequest(`The parameter "${name}" is sent more than once (body). Send each parameter once.`)
      seen.add(name)
      out.push([name, value])
    }
    return out
  }
  throw invalidRequest(
    `The body has Content-Type "${type}". Send the parameters as application/x-www-form-urlencoded or multipart/form-data (or in the query string).`,
  )
}
