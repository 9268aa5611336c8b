// bench/compare.js row 1 (copied 10 times into the scratch consumer): vitest's own cost per file,
// no msw and no svc-mock. "Extra wall time per file" is measured above this.
import { expect, it } from 'vitest'

it('does nothing', () => {
  expect(1).toBe(1)
})
