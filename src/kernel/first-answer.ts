/**
 * One hook for the whole process, run once after the first answer any emulator gives. The
 * package's loader (src/core-loader.ts) keeps V8's compiled code then, when the code a request
 * needs has been compiled too, so later processes start with it.
 */
let pending: (() => void) | undefined

/** Runs `hook` once, after the next answer (replacing a hook not run yet). */
export function afterFirstAnswer(hook: () => void): void {
  pending = hook
}

/** Called by the pipeline after every answer: one read when there is no hook. */
export function answered(): void {
  if (pending === undefined) return
  const hook = pending
  pending = undefined
  hook()
}
