/**
 * Helpers for the webhook suites: send a call, read the flow's executions (in-process objects
 * from `emu.webhooks`, the same on both transports since the server runs in this process).
 */
import type { Execution } from '../../src/webhooks/executions.js'
import type { Harness } from './harness.js'

export interface Answer {
  status: number
  text: string
  headers: Headers
}

export async function call(h: Harness, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await h.fetch(path, { redirect: 'manual', ...init })
  return { status: response.status, text: await response.text(), headers: response.headers }
}

export function postJson(h: Harness, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(h, path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } })
}

/** The bundle of the one execution of the webhook that matches, waiting for it if needed. */
export async function received(h: Harness, webhook: string, predicate: (e: Execution) => boolean = () => true): Promise<Record<string, unknown>> {
  const execution = await h.emu.webhooks.waitForExecution(webhook, predicate, { timeout: 1_000 })
  return execution.bundle
}

/** A body stream (fetch then sends no Content-Length: chunked over a socket). */
export function streamOf(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close()
        return
      }
      controller.enqueue(bytes.slice(offset, offset + chunk))
      offset += chunk
    },
  })
}

export const JSON_HEADERS = { 'content-type': 'application/json' }
