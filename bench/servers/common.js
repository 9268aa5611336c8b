// What both bench server children answer over IPC: memory and CPU figures of their own process.
export function answerIpc(extra = {}) {
  process.on('message', (msg) => {
    if (msg?.type === 'memory') {
      if (msg.gc && typeof globalThis.gc === 'function') globalThis.gc()
      const m = process.memoryUsage()
      process.send({ type: 'memory:done', rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, gcAvailable: typeof globalThis.gc === 'function' })
    } else if (msg?.type === 'cpu') {
      process.send({ type: 'cpu:done', ...process.cpuUsage(), at: performance.now() })
    } else if (extra[msg?.type]) {
      Promise.resolve(extra[msg.type](msg)).then((answer) => process.send({ type: `${msg.type}:done`, ...answer }))
    }
  })
  // The parent going away must not leave a server behind.
  process.on('disconnect', () => process.exit(0))
}
