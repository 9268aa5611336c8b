/**
 * Sending probes to the team over node:http and node:https (Node's own fetch takes no CA of the
 * user's): one request at a time, each with its own deadline (AbortSignal.timeout), redirects never
 * followed, the body read up to a bound. What goes wrong on the way is a TransportProblem in words
 * the user can act on; the problems that would meet every probe (an untrusted certificate, nothing
 * listening, an unknown host) stop the run.
 */
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { rootCertificates } from 'node:tls'
import type { ProbeRequest } from './request.js'

/** An answer as it came: status, headers (names in lower case), body. */
export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

export interface TransportProblem {
  readonly kind: 'timeout' | 'stop' | 'skip'
  readonly message: string
}

export type Sent = { readonly answer: RawAnswer } | { readonly problem: TransportProblem }

/** Bodies larger than this are not read (no probe's answer comes near it). */
const MAX_BODY_BYTES = 16 * 1024 * 1024

/** Certificate errors: the team's CA is not trusted here. */
const UNTRUSTED = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_UNTRUSTED', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID'])

export interface TargetTransport {
  send(request: ProbeRequest): Promise<Sent>
  close(): void
}

/** The team's transport; `ca` (PEM) is trusted beside the system's certificates and NODE_EXTRA_CA_CERTS'. */
export function targetTransport(options: { timeoutMs: number; ca: string | undefined; extraCa: string | undefined }): TargetTransport {
  const ca = options.ca === undefined ? undefined : [...rootCertificates, ...(options.extraCa === undefined ? [] : [options.extraCa]), options.ca]
  const http = new HttpAgent({ keepAlive: true })
  const https = new HttpsAgent({ keepAlive: true, ...(ca === undefined ? {} : { ca }) })
  return {
    send: (request) => send(request, options.timeoutMs, http, https),
    close: () => {
      http.destroy()
      https.destroy()
    },
  }
}

function send(request: ProbeRequest, timeoutMs: number, http: HttpAgent, https: HttpsAgent): Promise<Sent> {
  const url = new URL(request.url)
  const secure = url.protocol === 'https:'
  const signal = AbortSignal.timeout(timeoutMs)
  return new Promise((resolve) => {
    let done = false
    const finish = (sent: Sent): void => {
      if (done) return
      done = true
      resolve(sent)
    }
    const fail = (error: unknown): void => finish({ problem: problemOf(error, url, signal.aborted, timeoutMs) })
    const onAnswer = (res: IncomingMessage): void => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_BODY_BYTES) req.destroy(new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`))
        else chunks.push(chunk)
      })
      res.on('end', () => finish({ answer: { status: res.statusCode ?? 0, headers: flatten(res.headers), body: Buffer.concat(chunks) } }))
      res.on('error', fail)
      res.on('close', () => fail(new Error('the connection closed before the answer ended')))
    }
    const options = { method: request.method, headers: request.headers, signal, agent: secure ? https : http }
    const req = secure ? httpsRequest(url, options, onAnswer) : httpRequest(url, options, onAnswer)
    req.on('error', fail)
    req.end(request.body)
  })
}

function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/** What went wrong, in the user's terms, and whether the run can go on. */
export function problemOf(error: unknown, url: URL, timedOut: boolean, timeoutMs: number): TransportProblem {
  if (timedOut) return { kind: 'timeout', message: `timed out after ${timeoutMs} ms` }
  const code = String((error as { code?: unknown }).code ?? '')
  const where = url.host
  if (UNTRUSTED.has(code)) {
    return { kind: 'stop', message: `the team's TLS certificate at ${where} is not trusted here (${code}): point NODE_EXTRA_CA_CERTS at the CA that signed it, or give --ca FILE` }
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_')) return { kind: 'stop', message: `${where} does not answer TLS (${code}): if it serves plain HTTP, use http://` }
  if (code === 'ECONNREFUSED') return { kind: 'stop', message: `nothing answers at ${where} (connection refused): check --target` }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'stop', message: `the host ${url.hostname} is not known (DNS, ${code}): check --target` }
  if (code.startsWith('HPE_')) return { kind: 'skip', message: `the answer from ${where} is not HTTP (${code})` }
  const message = error instanceof Error ? error.message : String(error)
  return { kind: 'skip', message: `no answer from ${where}: ${code === '' ? message : `${code}, ${message}`}` }
}
