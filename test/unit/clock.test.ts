/** The emulator clock: manual and scaled real time, timers in order, settling before time moves. */
import { describe, expect, it } from 'vitest'
import { Clock } from '../../src/kernel/clock.js'

const START = Date.parse('2026-01-01T00:00:00.000Z')

describe('manual clock', () => {
  it('starts where told and moves only on advance', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    expect(clock.now()).toBe(START)
    await clock.advance(1500)
    expect(clock.now()).toBe(START + 1500)
    expect(clock.state()).toEqual({ now: '2026-01-01T00:00:01.500Z', mode: 'manual', timeScale: 1 })
  })

  it('fires the timers that fall due, in deadline order, each at its own time', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const fired: Array<[string, number]> = []
    clock.at(START + 300, () => fired.push(['c', clock.now()]))
    clock.at(START + 100, () => fired.push(['a', clock.now()]))
    clock.at(START + 200, () => fired.push(['b', clock.now()]))
    clock.at(START + 200, () => fired.push(['b2', clock.now()]))
    clock.at(START + 900, () => fired.push(['late', clock.now()]))
    await clock.advance(300)
    expect(fired).toEqual([
      ['a', START + 100],
      ['b', START + 200],
      ['b2', START + 200],
      ['c', START + 300],
    ])
  })

  it('wakes a sleeper exactly at its deadline and not before', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    let woke = false
    const sleeping = clock.sleep(40_000).then(() => {
      woke = true
    })
    await clock.advance(39_999)
    expect(woke).toBe(false)
    await clock.advance(1)
    await sleeping
    expect(woke).toBe(true)
  })

  it('lets tracked work reach its timer before time moves (settle), so an advance right after a call still wakes it', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    let done = false
    const work = clock.track(async (task) => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
      await task.sleep(1000)
      done = true
    })
    await clock.advance(1000)
    await work
    expect(done).toBe(true)
  })

  it('counts tracked work parked on the clock', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const work = clock.track((task) => task.sleep(10))
    expect(clock.parked()).toBe(1)
    expect(clock.busy()).toBe(0)
    await clock.advance(10)
    await work
    expect(clock.parked()).toBe(0)
  })

  it('keeps count of many tracked tasks ending in any order', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const releases: Array<() => void> = []
    const busy = [0, 1, 2].map(() => clock.track(() => new Promise<void>((resolve) => releases.push(resolve))))
    const parked = [30, 10, 20].map((ms) => clock.track((task) => task.sleep(ms)))
    expect([clock.busy(), clock.parked()]).toEqual([3, 3])
    releases[1]?.()
    await busy[1]
    expect([clock.busy(), clock.parked()]).toEqual([2, 3])
    await clock.advance(10)
    await parked[1]
    expect([clock.busy(), clock.parked()]).toEqual([2, 2])
    releases[0]?.()
    releases[2]?.()
    await Promise.all(busy)
    expect([clock.busy(), clock.parked()]).toEqual([0, 2])
    await clock.advance(20)
    await Promise.all(parked)
    expect([clock.busy(), clock.parked()]).toEqual([0, 0])
  })

  it('parks a task only on its own waits: a wait outside it leaves it busy', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const other = clock.sleep(10)
    let release: () => void = () => undefined
    const work = clock.track(() => new Promise<void>((resolve) => (release = resolve)))
    expect(clock.busy()).toBe(1)
    expect(clock.parked()).toBe(0)
    release()
    await work
    await clock.advance(10)
    await other
    expect(clock.busy()).toBe(0)
  })

  it('un-parks a task whose wait aborts', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const controller = new AbortController()
    const work = clock.track((task) => task.waitUntil(clock.now() + 5000, controller.signal).catch(() => 'aborted'))
    expect(clock.parked()).toBe(1)
    controller.abort(new Error('gone'))
    expect(await work).toBe('aborted')
    expect(clock.parked()).toBe(0)
  })

  it('rejects a wait when its signal aborts, and cancels the timer', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const controller = new AbortController()
    const waiting = clock.sleep(5000, controller.signal)
    controller.abort(new Error('gone'))
    await expect(waiting).rejects.toThrow('gone')
  })

  it('runs advances one after the other', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    await Promise.all([clock.advance(100), clock.advance(200)])
    expect(clock.now()).toBe(START + 300)
  })

  it('reset goes back to the start and releases pending waits', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const waiting = clock.sleep(60_000)
    await clock.advance(10)
    clock.reset()
    await waiting
    expect(clock.now()).toBe(START)
  })

  it('restored to a saved time is there, releases pending waits, and a reset returns to that time', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    const waiting = clock.sleep(60_000)
    clock.restore(START + 86_400_000)
    await waiting
    expect(clock.now()).toBe(START + 86_400_000)
    await clock.advance(5000)
    clock.reset()
    expect(clock.now()).toBe(START + 86_400_000)
    expect(() => clock.restore(Number.NaN)).toThrow(/clock.now/)
  })

  it('refuses an advance past the last representable date, and stays usable', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    await expect(clock.advance(1e16)).rejects.toThrow(/past the last date it can represent/)
    expect(clock.now()).toBe(START)
    expect(clock.state().now).toBe(new Date(START).toISOString())
    await clock.advance(1000)
    expect(clock.now()).toBe(START + 1000)
    expect(() => new Clock({ start: 9e15 })).toThrow(/clock.start/)
  })

  it('refuses a negative or non-numeric advance, and bad options', async () => {
    const clock = new Clock({ mode: 'manual', start: START })
    await expect(clock.advance(-1)).rejects.toThrow(/Invalid option ms/)
    expect(() => new Clock({ timeScale: -2 })).toThrow(/timeScale/)
    expect(() => new Clock({ start: 'yesterday' })).toThrow(/clock.start/)
  })
})

describe('real clock', () => {
  it('a reset goes back to the wall time, never behind it: after "15 minutes of uptime" and an advance, now is within a second of Date.now()', async () => {
    const clock = new Clock({ mode: 'real', start: Date.now() - 15 * 60_000 })
    await clock.advance(3_600_000)
    clock.reset()
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000)
    clock.close()
  })

  it('restored ahead of the wall clock keeps that lead through a reset, and is never put behind the wall clock', () => {
    const clock = new Clock({ mode: 'real' })
    clock.restore(Date.now() + 3_600_000)
    clock.reset()
    expect(Math.abs(clock.now() - (Date.now() + 3_600_000))).toBeLessThan(1000)
    clock.restore(Date.now() - 3_600_000)
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000)
    clock.close()
  })

  it('follows the wall clock scaled by timeScale: 40 s of emulator time pass in a few real milliseconds at 0.0001', async () => {
    const clock = new Clock({ mode: 'real', timeScale: 0.0001 })
    const before = clock.now()
    await clock.sleep(40_000)
    expect(clock.now() - before).toBeGreaterThanOrEqual(40_000)
  })

  it('can be advanced too (e.g. to expire tokens during a QA run)', async () => {
    const clock = new Clock({ mode: 'real', start: START })
    let fired = false
    clock.at(START + 3_600_000, () => {
      fired = true
    })
    await clock.advance(3_600_000)
    expect(fired).toBe(true)
    expect(clock.now()).toBeGreaterThanOrEqual(START + 3_600_000)
  })
})
