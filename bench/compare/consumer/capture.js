// Run once in the scratch consumer by bench/compare.js: svc-mock's in-process answer to the
// versions GET, written to answer.js for the hand-written msw handlers (the same bytes).
import { writeFileSync } from 'node:fs'
import { createEmulator } from 'svc-mock'
import { AUTH, VERSIONS_URL } from './request.js'

const emu = await createEmulator({ clock: 'manual' })
const res = await emu.handle(new Request(VERSIONS_URL, { headers: { authorization: AUTH } }))
const body = await res.text()
if (res.status !== 200) throw new Error(`svc-mock answered ${res.status}: ${body}`)
const headers = {}
for (const [k, v] of res.headers) if (!['content-length', 'date', 'connection'].includes(k)) headers[k] = v
writeFileSync(
  new URL('./answer.js', import.meta.url),
  `// Written by capture.js: svc-mock's in-process answer to the versions GET (${Buffer.byteLength(body)} bytes).\n` +
    `export const STATUS = ${res.status}\nexport const HEADERS = ${JSON.stringify(headers)}\nexport const BODY = ${JSON.stringify(body)}\n`,
)
process.stdout.write(`${JSON.stringify({ status: res.status, bytes: Buffer.byteLength(body), headers })}\n`)
