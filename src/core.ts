/**
 * Everything the package's entry points hand out, in one module: the build makes it one file
 * (dist/core.cjs, and dist/core.js for where that cannot run) and every entry point (dist/index.js,
 * server.js, msw.js, vitest.js) takes its values from the one copy src/core-loader.ts loads. A
 * process that imports `svc-mock` and `svc-mock/msw` therefore holds one emulator implementation,
 * one class per error (`instanceof` holds across entry points), one set of precompiled defaults.
 * Not an entry point of its own.
 */
export * from './index.js'
export * from './adapters/server.js'
// What the msw and vitest adapters (built outside the core, since they import msw and vitest
// themselves) use of it.
export { createEmulator, mswAdapterLoader } from './adapters/in-process.js'
export { MswMissingError, mswMajor, unhandledListenOption } from './adapters/msw-compat.js'
export { isNetworkFault, toFetchResponse } from './kernel/reply.js'
export { incomingOf } from './kernel/request.js'
export { afterFirstAnswer } from './kernel/first-answer.js'
