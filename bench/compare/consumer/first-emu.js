// bench/compare.js row 2, a fresh process: import svc-mock and msw, createEmulator, setupServer,
// first versions answer through fetch, exit. Prints its own marks (ms since the process began).
const t = () => performance.now()
const marks = {}
const { setupServer } = await import('msw/node')
const { createEmulator } = await import('svc-mock')
marks.imported = t()
const { AUTH, VERSIONS_URL } = await import('./request.js')
const emu = await createEmulator({ clock: 'manual' })
marks.created = t()
const server = setupServer(...emu.handlers)
server.listen({ onUnhandledRequest: 'error' })
marks.listening = t()
const res = await fetch(VERSIONS_URL, { headers: { authorization: AUTH } })
const body = await res.arrayBuffer()
marks.answered = t()
if (res.status !== 200 || body.byteLength < 1000) throw new Error(`unexpected answer ${res.status} (${body.byteLength} bytes)`)
server.close()
process.stdout.write(`${JSON.stringify(marks)}\n`)
