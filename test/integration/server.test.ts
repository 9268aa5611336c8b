/**
 * What only the socket transport has: a route that throws answers 500 and the server keeps
 * serving; connections are kept alive; a body over the limit with Content-Length is refused
 * before it is read.
 */
import { createServer, request as httpRequest, Agent } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestListener } from '../../src/adapters/node-http.js'
import { startServer, type RunningServer } from '../../src/adapters/server.js'
import { Clock } from '../../src/kernel/clock.js'
import { Journal } from '../../src/kernel/journal.js'
import { createLogger } from '../../src/kernel/logger.js'
import { Redactor } from '../../src/kernel/redact.js'
import { text } from '../../src/kernel/reply.js'
import { ScenarioCatalogue } from '../../src/kernel/scenarios/catalogue.js'
import { ScenarioEngine } from '../../src/kernel/scenarios/engine.js'
import { Pipeline } from '../../src/kernel/serve.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'
import { STALLED_BODY, exchange, oversizedPost } from '../support/raw-socket.js'

describe('a route that throws', () => {
  const logged: string[] = []
  let url = ''
  const server = createServer()

  beforeAll(async () => {
    const clock = new Clock({ mode: 'manual' })
    const logger = createLogger('pretty', () => undefined, (line) => logged.push(line))
    const pipeline = new Pipeline(
      {
        clock,
        journal: new Journal(clock, new Redactor(), 100),
        scenarios: new ScenarioEngine(new ScenarioCatalogue(() => undefined), () => ({})),
        logger,
        settings: () => ({}),
        get origins() {
          return { base: url }
        },
        targets: [],
        routeList: 'GET /routes',
      },
      [
        { id: 'test.boom', method: 'GET', path: '/boom', origin: 'base', summary: 'throws', resolve: () => { throw new TypeError('cannot read x of undefined') } },
        { id: 'test.ok', method: 'GET', path: '/ok', origin: 'base', summary: 'fine', resolve: () => text('fine') },
      ],
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    server.on('request', requestListener({ serve: (request, transport) => pipeline.serve(request, transport), logger }, url))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('answers 500 naming the route, logs the error, and keeps serving', async () => {
    const response = await fetch(`${url}/boom`)
    expect(response.status).toBe(500)
    const body = (await response.json()) as { error: string; message: string }
    expect(body.error).toBe('svc-mock internal error')
    expect(body.message).toContain('The handler of route test.boom threw: cannot read x of undefined')
    expect(logged.join('\n')).toContain('route test.boom threw while answering GET /boom')
    expect(logged.join('\n')).toContain('TypeError: cannot read x of undefined')
    const ok = await fetch(`${url}/ok`)
    expect(ok.status).toBe(200)
    expect(await ok.text()).toBe('fine')
  })
})

describe('a stalled request', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent', requestTimeoutMs: 200 })
  })
  afterAll(() => running.close())

  it('a body that stops coming is answered 408 and its connection closed; the server keeps serving', async () => {
    const { connect } = await import('node:net')
    const answer = await exchange((connected) => connect(running.port, '127.0.0.1', connected), STALLED_BODY)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect((await fetch(`${running.url}/__svc-mock/health`)).status).toBe(200)
  })
})

describe('the standalone server', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent' })
  })
  afterAll(() => running.close())

  /** A raw request, for methods fetch refuses to send. */
  const raw = (method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> =>
    new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: running.port, method, path }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      })
      request.on('error', reject)
      request.end()
    })

  it('answers a method no route takes (TRACE, PROPFIND) with 501, and keeps serving', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      const answer = await raw(method, VERSIONS())
      expect(answer.status).toBe(501)
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'Not Implemented' })
    }
    expect((await fetch(`${running.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('answers a method the HTTP parser does not know (FOO) with 501 before any route, and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(running.port, '127.0.0.1', () => socket.write('FOO /oauth2/token HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'))
      let text = ''
      socket.setEncoding('latin1')
      socket.on('data', (chunk: string) => (text += chunk))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/)
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: 'Not Implemented' })
    expect((await fetch(`${running.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('answers headers larger than the parser takes with 431 and a garbled request line with 400, as Node does, and keeps serving', async () => {
    const rawAnswer = (text: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(running.port, '127.0.0.1', () => socket.write(text))
        let answer = ''
        socket.setEncoding('latin1')
        socket.on('data', (chunk: string) => (answer += chunk))
        socket.on('end', () => resolve(answer))
        socket.on('error', reject)
      })
    expect(await rawAnswer(`GET /__svc-mock/health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /)
    expect(await rawAnswer('GET nonsense\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /)
    expect((await fetch(`${running.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('answers TRACE to a webhook address with 405 and Allow (webhooks take any other method)', async () => {
    const answer = await raw('TRACE', '/hooks/orders')
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
  })

  it('answers CONNECT with 501 and closes the connection', async () => {
    const answer = await new Promise<{ status: number; closed: boolean }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: running.port, method: 'CONNECT', path: 'example.com:443' })
      request.on('connect', (response, socket) => {
        socket.on('close', () => resolve({ status: response.statusCode ?? 0, closed: true }))
        socket.resume()
      })
      request.on('response', (response) => resolve({ status: response.statusCode ?? 0, closed: false }))
      request.on('error', reject)
      request.end()
    })
    expect(answer.status).toBe(501)
    expect((await fetch(`${running.url}/__svc-mock/health`)).status).toBe(200)
  })

  it('refuses a control-plane request addressed to another host name (DNS rebinding) with 421; the API still answers', async () => {
    const viaRebinding = (path: string, method = 'GET'): Promise<number> =>
      new Promise((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port: running.port, method, path, headers: { host: `attacker.example:${running.port}`, 'content-type': 'application/json' } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        request.on('error', reject)
        request.end(method === 'POST' ? '{"clientId":"ci-client"}' : undefined)
      })
    expect(await viaRebinding('/__svc-mock/state')).toBe(421)
    expect(await viaRebinding('/__svc-mock/oauth-tokens', 'POST')).toBe(421)
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port: running.port, path: '/__svc-mock/health', headers: { host: `${host}:${running.port}` } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        request.on('error', reject)
        request.end()
      })
      expect(status).toBe(200)
    }
  })

  it('binds to loopback on the port asked for and reports its URL', () => {
    expect(running.host).toBe('127.0.0.1')
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`)
    expect(running.emulator.urls.base).toBe(running.url)
  })

  it('keeps connections alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const ports: number[] = []
    for (let i = 0; i < 3; i++) {
      ports.push(
        await new Promise<number>((resolve, reject) => {
          const req = httpRequest(`${running.url}${VERSIONS()}`, { agent, headers: APP_KEY }, (res) => {
            res.resume()
            res.on('end', () => resolve(req.socket?.localPort ?? -1))
          })
          req.on('error', reject)
          req.end()
        }),
      )
    }
    agent.destroy()
    expect(new Set(ports).size).toBe(1)
  })

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const status = await oversizedPost(httpRequest, `${running.url}/__svc-mock/elements`)
    expect(status).toBe(413)
    expect((await fetch(`${running.url}/__svc-mock/health`)).status).toBe(200)
  })

  it('answers a malformed request target with 400 instead of failing', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: running.port, path: 'http://[bad', method: 'GET' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(400)
    expect((await fetch(`${running.url}/__svc-mock/health`)).status).toBe(200)
  })
})
