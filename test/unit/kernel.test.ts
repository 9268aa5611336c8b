/** Smaller kernel pieces: journal ring and redaction, seeded ids, the router (the keyed store: keyed-store.test.ts). */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Clock } from '../../src/kernel/clock.js'
import { HeaderFields } from '../../src/kernel/headers.js'
import { SeededIds } from '../../src/kernel/ids.js'
import { JOURNAL_BODY_LIMIT } from '../../src/kernel/constants.js'
import { Journal, type JournalRecord } from '../../src/kernel/journal.js'
import { Redactor } from '../../src/kernel/redact.js'
import { compilePattern, RouteTable } from '../../src/kernel/router.js'
import { createLogger } from '../../src/kernel/logger.js'
import { text } from '../../src/kernel/reply.js'
import { ScenarioCatalogue } from '../../src/kernel/scenarios/catalogue.js'
import { ScenarioEngine } from '../../src/kernel/scenarios/engine.js'
import { Pipeline } from '../../src/kernel/serve.js'

/** The redaction list as the emulator builds it: the kernel's, plus the OAuth fields the auth domain declares. */
const redactor = (): Redactor => {
  const redact = new Redactor()
  redact.add(['client_secret', 'refresh_token', 'access_token', 'code', 'code_verifier'])
  return redact
}
const { headers: redactHeaders, path: redactPath } = ((r) => ({ headers: r.headers.bind(r), path: r.path.bind(r) }))(redactor())
const redactValue = (value: unknown): unknown => redactor().value(value)

const entry = (route: string, status = 200, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  receivedAt: Date.parse('2026-01-01T00:00:00.000Z'),
  route,
  method: 'GET',
  url: 'https://x/',
  status,
  identity: null,
  scenarios: [],
  durationMs: 0,
  transport: 'in-process' as const,
  requestHeaders: new Headers(),
  requestBody: undefined,
  responseHeaders: new Headers(),
  responseBody: undefined,
  secretResponse: false,
  ...extra,
})

describe('Journal', () => {
  it('keeps the newest entries when full and numbers them across the run', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 3)
    for (let i = 0; i < 5; i++) journal.record(entry(`r.${i}`))
    expect(journal.list().map((e) => [e.seq, e.route])).toEqual([
      [3, 'r.2'],
      [4, 'r.3'],
      [5, 'r.4'],
    ])
  })

  it('gives each kept entry its own fields, and an entry read before it dropped out stays as it was read', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 2)
    const headers = (n: number): Headers => new Headers({ 'x-n': String(n), ...(n % 2 === 0 ? { authorization: 'Bearer secret' } : { 'content-type': 'application/json' }) })
    const record = (n: number): number =>
      journal.record(
        entry(`r.${n}`, 200 + n, {
          url: `https://x/p/${n}?q=${n}`,
          method: n % 2 === 0 ? 'GET' : 'POST',
          requestHeaders: headers(n),
          identity: n % 3 === 0 ? null : `id-${n}`,
          requestBytes: n % 2 === 0 ? undefined : new TextEncoder().encode(`{"n":${n}}`),
          ...(n === 4 ? { nearMiss: { route: { id: 'r.x', method: 'GET', path: '/x', origin: 'https://x' }, differences: [] } } : {}),
        }),
      )
    const first = [record(1), record(2)]
    const early = journal.get(first[0] ?? 0)
    const snapshot = JSON.stringify(early)
    for (let n = 3; n <= 7; n++) record(n)
    expect(JSON.stringify(early)).toBe(snapshot)
    expect(early?.path).toBe('/p/1?q=1')
    expect(journal.get(first[0] ?? 0)).toBeUndefined()
    const kept = journal.list()
    expect(kept.map((e) => [e.seq, e.route, e.status, e.method, e.path, e.identity])).toEqual([
      [6, 'r.6', 206, 'GET', '/p/6?q=6', null],
      [7, 'r.7', 207, 'POST', '/p/7?q=7', 'id-7'],
    ])
    expect(kept[0]?.request.headers).toEqual({ authorization: 'Bearer [redacted]', 'x-n': '6' })
    expect(kept[0]?.request.bodyText).toBeUndefined()
    expect(kept[1]?.request.headers).toEqual({ 'content-type': 'application/json', 'x-n': '7' })
    expect(kept[1]?.request.bodyText).toBe('{"n":7}')
    expect(kept.some((e) => e.nearMiss !== undefined)).toBe(false)
  })

  it('filters by route prefix, status and limit', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 1000)
    journal.record(entry('versions.list'))
    journal.record(entry('webhooks.receive', 400))
    journal.record(entry('webhooks.options'))
    expect(journal.list({ route: 'webhooks.*' }).map((e) => e.route)).toEqual(['webhooks.receive', 'webhooks.options'])
    expect(journal.list({ route: 'webhooks' })).toHaveLength(2)
    expect(journal.list({ status: 400 })).toHaveLength(1)
    expect(journal.list({ limit: 1 })[0]?.route).toBe('webhooks.options')
  })

  it('gives entries redacted when read: headers, query, request body, and secret JSON answers', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 1000)
    journal.record(
      entry('auth.token', 200, {
        url: 'https://x/oauth2/token?client_secret=s&scope=a',
        requestHeaders: new Headers({ authorization: 'Basic Y2k6c2VjcmV0', accept: 'application/json' }),
        requestBody: { grant_type: 'authorization_code', code: 'c-123' },
        responseHeaders: new Headers({ 'content-type': 'application/json', location: 'https://app/cb?code=abc&state=s' }),
        responseBody: Buffer.from(JSON.stringify({ access_token: 'eyJ.x.y', token_type: 'Bearer' })),
        secretResponse: true,
      }),
    )
    const [logged] = journal.list()
    expect(logged?.path).toBe('/oauth2/token?client_secret=%5Bredacted%5D&scope=a')
    expect(logged?.request).toEqual({ headers: { authorization: 'Basic [redacted]', accept: 'application/json' }, body: { grant_type: 'authorization_code', code: '[redacted]' } })
    expect(logged?.response.headers.location).toBe('https://app/cb?code=%5Bredacted%5D&state=s')
    expect(JSON.parse(logged?.response.body ?? '{}')).toEqual({ access_token: '[redacted]', token_type: 'Bearer' })
    expect(journal.get(1)).toBe(logged)
  })

  it('gives back every header and body byte as recorded, from either kind of header set', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 1000)
    const socketHeaders = HeaderFields.fromRaw(['Host', '127.0.0.1:4010', 'X-Tag', 'a', 'x-tag', 'b', 'Content-Type', 'application/json', 'Empty', ''])
    const answer = new HeaderFields()
    answer.append('vary', 'origin')
    answer.append('Vary', 'accept')
    answer.set('content-type', 'text/plain; charset=utf-8')
    const body = Buffer.from(JSON.stringify({ name: 'Zoë', note: '✓' }))
    journal.record(entry('webhooks.receive', 200, { method: 'POST', requestHeaders: socketHeaders, requestBytes: body, responseHeaders: answer, responseBody: 'Accepted' }))
    const [first] = journal.list()
    expect(first?.request.headers).toEqual({ host: '127.0.0.1:4010', 'x-tag': 'a, b', 'content-type': 'application/json', empty: '' })
    expect(first?.request.bodyText).toBe('{"name":"Zoë","note":"✓"}')
    expect(first?.response).toEqual({ headers: { vary: 'origin, accept', 'content-type': 'text/plain; charset=utf-8' }, body: 'Accepted' })
    expect(journal.get(1)).toBe(first)
  })

  it('shows a request body as sent up to the journal body limit, and not one larger', () => {
    const journal = new Journal(new Clock({ mode: 'manual' }), redactor(), 10)
    const json = (size: number): Uint8Array => new TextEncoder().encode(JSON.stringify({ pad: 'x'.repeat(size) }))
    const headers = new Headers({ 'content-type': 'application/json' })
    journal.record(entry('small', 200, { method: 'POST', requestHeaders: headers, requestBytes: json(100) }))
    journal.record(entry('large', 200, { method: 'POST', requestHeaders: headers, requestBytes: json(JOURNAL_BODY_LIMIT) }))
    expect(journal.list().map((e) => [e.route, e.request.bodyText?.length])).toEqual([
      ['small', 110],
      ['large', undefined],
    ])
  })

  it('wait resolves with the next match, or undefined after the timeout on the emulator clock', async () => {
    const clock = new Clock({ mode: 'manual' })
    const journal = new Journal(clock, redactor(), 1000)
    const next = journal.wait({ route: 'versions.list' })
    journal.record(entry('other'))
    journal.record(entry('versions.list'))
    expect((await next)?.route).toBe('versions.list')
    const never = journal.wait({ route: 'nothing' }, { timeoutMs: 1000 })
    await clock.advance(1000)
    expect(await never).toBeUndefined()
  })
})

describe('redaction', () => {
  it('keeps the scheme of Authorization and hides the credential', () => {
    const headers = new Headers({ authorization: 'Bearer abc.def.ghi', cookie: 'a=b', accept: 'x' })
    expect(redactHeaders(headers)).toEqual({ authorization: 'Bearer [redacted]', cookie: '[redacted]', accept: 'x' })
  })

  it('hides secret query parameters and body fields at any depth', () => {
    expect(redactPath(new URL('https://x/oauth2/token?grant_type=refresh_token&refresh_token=r1&client_secret=s'))).toBe(
      '/oauth2/token?grant_type=refresh_token&refresh_token=%5Bredacted%5D&client_secret=%5Bredacted%5D',
    )
    expect(redactPath(new URL('https://x/a?b=c'))).toBe('/a?b=c')
    expect(redactValue({ client_id: 'c', client_secret: 's', nested: [{ code: 'abc', password: 'p', keep: 1 }] })).toEqual({
      client_id: 'c',
      client_secret: '[redacted]',
      nested: [{ code: '[redacted]', password: '[redacted]', keep: 1 }],
    })
  })

  it('shows any body without a secret field or credential header value in it, bytes as their size, and every member (__proto__ included) as a member', () => {
    const secretHeader = fc.constantFrom('authorization', 'Authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key')
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)))
    const headerEntry = fc.record({ name: fc.oneof(secretHeader, fc.constantFrom('accept', 'x-order-source')), value: fc.string() })
    const { body } = fc.letrec((tie) => ({
      body: fc.oneof({ depthSize: 'small' }, leaf, headerEntry, fc.array(tie('body'), { maxLength: 4 }), fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'client_secret', 'Password', 'name', 'value')), tie('body'), { maxKeys: 4 })),
    }))
    const secretKeys = redactor()
    fc.assert(
      fc.property(body, (value) => {
        const shown = redactValue(value)
        const walk = (original: unknown, rendered: unknown): void => {
          if (Buffer.isBuffer(original)) return expect(rendered).toBe(`[${original.byteLength} bytes]`)
          if (Array.isArray(original)) return original.forEach((item, i) => walk(item, (rendered as unknown[])[i]))
          if (typeof original !== 'object' || original === null) return expect(rendered).toBe(original)
          const out = rendered as Record<string, unknown>
          expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
          expect(Object.keys(out)).toEqual(Object.keys(original))
          const entry = original as { name?: unknown; value?: unknown }
          const credential = typeof entry.name === 'string' && typeof entry.value === 'string' && /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i.test(entry.name)
          for (const key of Object.keys(original)) {
            if (secretKeys.isSecretKey(key) || (credential && key === 'value')) expect(out[key]).toBe('[redacted]')
            else walk((original as Record<string, unknown>)[key], out[key])
          }
        }
        walk(value, shown)
        expect(() => JSON.stringify(shown)).not.toThrow()
      }),
    )
  })
})

describe('SeededIds', () => {
  it('repeats its sequence for a seed, and gives version-4 UUIDs', () => {
    const a = new SeededIds(7)
    const b = new SeededIds(7)
    const first = [a.uuid(), a.uuid(), a.token(12)]
    expect([b.uuid(), b.uuid(), b.token(12)]).toEqual(first)
    a.reset()
    expect(a.uuid()).toBe(first[0])
    expect(first[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new SeededIds(8).uuid()).not.toBe(first[0])
  })

  it('counts its draws, and restored to a count continues exactly where a stream of its seed was, reset returning there', () => {
    const original = new SeededIds(7)
    original.uuid()
    original.token(5)
    expect(original.drawn).toBe(9)
    const copy = new SeededIds(7)
    copy.restore(original.drawn)
    const next = [original.uuid(), original.token(12)]
    expect([copy.uuid(), copy.token(12)]).toEqual(next)
    copy.uuid()
    copy.reset()
    expect(copy.drawn).toBe(9)
    expect(copy.uuid()).toBe(next[0])
    // A stream of another seed restored to the same count continues its own sequence.
    const other = new SeededIds(8)
    other.restore(9)
    const reference = new SeededIds(8)
    for (let i = 0; i < 9; i++) reference.next()
    expect(other.uuid()).toBe(reference.uuid())
    expect(other.uuid()).not.toBe(next[0])
  })

  it('gives the same ids for a seed as every release before (fixtures and users\' snapshots hold them)', () => {
    const ids = new SeededIds(7)
    expect([ids.uuid(), ids.uuid(), ids.uuid()]).toEqual([
      '02ff152c-0fdc-4f12-ba16-9e5eb2f38b96',
      '857d6fe7-67d0-44f4-b75b-05953d6bbcab',
      '8da6bf2d-bad5-4ed8-8200-335b27ec3b63',
    ])
  })

  it('formats every draw as the hex of its four values, version and variant in place', () => {
    // The first implementation's formula, from strings: the byte tables must agree with it for any draw.
    const hex = (n: number): string => n.toString(16).padStart(8, '0')
    const reference = (a: string, b: string, c: string, d: string): string =>
      `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${((parseInt(c.slice(0, 1), 16) & 0x3) | 0x8).toString(16)}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 50 }), (seed, skip) => {
        const ids = new SeededIds(seed)
        const draws = new SeededIds(seed)
        for (let i = 0; i < skip; i++) {
          ids.next()
          draws.next()
        }
        const [a, b, c, d] = [draws.next(), draws.next(), draws.next(), draws.next()].map(hex)
        expect(ids.uuid()).toBe(reference(a ?? '', b ?? '', c ?? '', d ?? ''))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('RouteTable', () => {
  it('matches static and parameter segments, decodes parameters, and reports 405s', () => {
    const table = new RouteTable<string>()
    table.add('GET', compilePattern('/hooks/:token'), 'hook')
    table.add('POST', compilePattern('/hooks/:token/x'), 'x')
    table.add('GET', compilePattern('/a/:b/c'), 'abc')
    expect(table.match('GET', '/hooks/my%20hook')).toEqual({ kind: 'match', route: 'hook', params: { token: 'my hook' } })
    expect(table.match('HEAD', '/hooks/a')).toMatchObject({ kind: 'match', route: 'hook' })
    expect(table.match('DELETE', '/hooks/a')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] })
    expect(table.match('GET', '/hooks/')).toEqual({ kind: 'not-found' })
    expect(table.match('GET', '/a/b/d')).toEqual({ kind: 'not-found' })
  })

  it('answers HEAD with a route declared for HEAD before a GET route that matches the path too, whichever came first', () => {
    const table = new RouteTable<string>()
    table.add('GET', compilePattern('/doc/:id'), 'get any')
    table.add('HEAD', compilePattern('/doc/one'), 'head one')
    table.add('*', compilePattern('/doc/:id'), 'any method')
    expect(table.match('HEAD', '/doc/one')).toMatchObject({ kind: 'match', route: 'head one' })
    expect(table.match('HEAD', '/doc/two')).toMatchObject({ kind: 'match', route: 'get any' })
    expect(table.match('GET', '/doc/one')).toMatchObject({ kind: 'match', route: 'get any' })
    expect(table.match('POST', '/doc/one')).toMatchObject({ kind: 'match', route: 'any method' })
  })
})

describe('Ring', () => {
  it('keeps the newest items up to its capacity, oldest first', async () => {
    const { Ring } = await import('../../src/kernel/ring.js')
    const ring = new Ring<number>(3)
    for (let i = 1; i <= 7; i++) ring.push(i)
    expect([...ring]).toEqual([5, 6, 7])
    expect(ring.length).toBe(3)
    expect([ring.at(0), ring.at(2), ring.at(3), ring.at(-1)]).toEqual([5, 7, undefined, undefined])
    expect(ring.filter((n) => n % 2 === 1)).toEqual([5, 7])
    expect(ring.find((n) => n > 5)).toBe(6)
    ring.clear()
    expect([...ring]).toEqual([])
    ring.push(9)
    expect([...ring]).toEqual([9])
  })

  it('holds nothing with capacity 0', async () => {
    const { Ring } = await import('../../src/kernel/ring.js')
    const ring = new Ring<string>(0)
    ring.push('a')
    expect([...ring]).toEqual([])
    expect(ring.at(0)).toBeUndefined()
  })
})

describe('Pipeline: headers a route sets on its context', () => {
  it("join the reply's, which win a name both set; every value of a name goes", async () => {
    const clock = new Clock({ mode: 'manual' })
    const pipeline = new Pipeline(
      {
        clock,
        journal: new Journal(clock, redactor(), 10),
        scenarios: new ScenarioEngine(new ScenarioCatalogue(() => undefined), () => ({})),
        logger: createLogger('silent', () => undefined, () => undefined),
        settings: () => ({}),
        origins: { base: 'https://emu.test' },
        targets: [],
        routeList: 'GET /routes',
      },
      [
        {
          id: 'test.headers',
          method: 'GET',
          path: '/h',
          origin: 'base',
          summary: 'sets headers two ways',
          resolve: (ctx) => {
            ctx.responseHeaders.set('x-added', '1')
            ctx.responseHeaders.set('x-both', 'from the context')
            ctx.responseHeaders.append('set-cookie', 'a=1')
            ctx.responseHeaders.append('set-cookie', 'b=2')
            return text('ok', { headers: { 'x-both': 'from the reply' } })
          },
        },
      ],
    )
    const reply = await pipeline.serve({ method: 'GET', url: new URL('https://emu.test/h'), headers: new Headers(), body: null }, 'in-process')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('x-added')).toBe('1')
    expect(reply.headers.get('x-both')).toBe('from the reply')
    expect(reply.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  })
})

describe('request log', () => {
  const serveLogged = async (format: 'pretty' | 'json'): Promise<{ lines: string[]; journal: Journal }> => {
    const clock = new Clock({ mode: 'manual' })
    const journal = new Journal(clock, redactor(), 10)
    const lines: string[] = []
    const pipeline = new Pipeline(
      {
        clock,
        journal,
        scenarios: new ScenarioEngine(new ScenarioCatalogue(() => undefined), () => ({})),
        logger: createLogger(format, (line) => lines.push(line), (line) => lines.push(line)),
        settings: () => ({}),
        origins: { base: 'https://emu.test' },
        targets: [],
        routeList: 'GET /routes',
      },
      [
        {
          id: 'test.token',
          method: 'POST',
          path: '/token',
          origin: 'base',
          summary: 'answers a token',
          secretResponse: true,
          resolve: (ctx) => {
            ctx.identity = 'ci-client'
            ctx.journalBody = { client_secret: 'body-s3cret' }
            return text(JSON.stringify({ access_token: 'tok-s3cret' }), { headers: { 'content-type': 'application/json' } })
          },
        },
      ],
    )
    const request = {
      method: 'POST',
      url: new URL('https://emu.test/token?client_secret=query-s3cret&scope=a'),
      headers: new Headers({ authorization: 'Basic header-s3cret', 'content-type': 'application/x-www-form-urlencoded' }),
      body: null,
    }
    await pipeline.serve(request, 'in-process')
    await pipeline.serve({ ...request, url: new URL('https://emu.test/nowhere?code=code-s3cret') }, 'in-process')
    return { lines, journal }
  }

  it('pretty: one line a request with the path redacted as the journal entry, and no secret', async () => {
    const { lines, journal } = await serveLogged('pretty')
    const [token, unmatched] = journal.list()
    expect(lines).toEqual([
      `${token?.time.slice(11, 23)}  POST   ${token?.path} -> 200  test.token  ci-client`,
      `${unmatched?.time.slice(11, 23)}  POST   ${unmatched?.path} -> 404  unmatched`,
    ])
    expect(token?.path).toBe('/token?client_secret=%5Bredacted%5D&scope=a')
    expect(lines.join('\n')).not.toMatch(/s3cret/)
  })

  it('json: the line has the entry\'s summary fields only, with the path redacted, and no secret', async () => {
    const { lines, journal } = await serveLogged('json')
    const [token] = journal.list()
    const logged = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(Object.keys(logged).sort()).toEqual(['durationMs', 'emulatorTime', 'event', 'identity', 'level', 'method', 'msg', 'path', 'route', 'scenarios', 'status', 'time'])
    expect(logged).toMatchObject({ event: 'request', route: 'test.token', method: 'POST', path: token?.path, status: 200, identity: 'ci-client', scenarios: [], emulatorTime: token?.time })
    expect(lines.join('\n')).not.toMatch(/s3cret/)
  })
})
