import { describe, expect, test } from 'vitest'
import { createListeners, createProgressTracker, type UploadProgress } from './progress.ts'

const silent = { debug() {}, info() {}, warn() {}, error() {} }

describe('progress', () => {
  test('a failed attempt is taken back exactly; stored parts count whole; listeners that throw are contained', () => {
    const seen: UploadProgress[] = []
    const warnings: string[] = []
    const listeners = createListeners<UploadProgress>(
      (p) => {
        seen.push(p)
        if (p.loaded === 7) throw new Error('listener bug')
      },
      { ...silent, warn: (m) => warnings.push(m) },
    )
    const tracker = createProgressTracker(listeners.emit)
    tracker.total(30)
    tracker.sent(1, 4)
    tracker.sent(2, 3)
    tracker.restart(1)
    expect(tracker.current.loaded).toBe(3)
    tracker.sent(1, 10)
    tracker.stored(1, 10)
    tracker.stored(2, 10)
    expect(tracker.current).toMatchObject({ loaded: 20, total: 30 })
    expect(seen.map((p) => p.loaded)).toEqual([0, 4, 7, 3, 13, 13, 20])
    expect(warnings).toHaveLength(1)
  })

  test('a listener that throws is logged and the others still hear every update; removed ones hear nothing', () => {
    const warnings: string[] = []
    const heard: string[] = []
    const listeners = createListeners<number>(
      () => {
        throw new Error('listener bug')
      },
      { ...silent, warn: (m) => warnings.push(m) },
    )
    listeners.add((n) => heard.push(`a${n}`))
    const remove = listeners.add((n) => heard.push(`b${n}`))
    listeners.emit(1)
    remove()
    listeners.emit(2)
    expect(heard).toEqual(['a1', 'b1', 'a2'])
    expect(warnings).toEqual(['upload: a progress listener threw', 'upload: a progress listener threw'])
  })
})

describe('rate and ETA', () => {
  test('a smoothed rate over half-second samples; ETA from it; a pause forgets the history', () => {
    let now = 0
    const tracker = createProgressTracker(
      () => {},
      () => now,
    )
    tracker.total(10_000)
    tracker.phase('uploading')
    tracker.sent(1, 100)
    expect(tracker.current.rate).toBeUndefined()
    now = 1000
    tracker.sent(1, 900) // 1,000 bytes in 1 s
    expect(tracker.current).toMatchObject({ rate: 1000, etaMs: 9000 })
    now = 2000
    tracker.sent(1, 2000) // 2,000 B/s now: 0.3 x 2000 + 0.7 x 1000
    expect(tracker.current.rate).toBeCloseTo(1300)
    expect(tracker.current.etaMs).toBe(Math.round((7000 / 1300) * 1000))
    tracker.paused(true)
    expect(tracker.current).toMatchObject({ paused: true, rate: undefined, etaMs: undefined })
    now = 60_000
    tracker.paused(false)
    tracker.sent(2, 500)
    expect(tracker.current.rate).toBeUndefined()
    now = 60_500
    tracker.sent(2, 500) // 1,000 bytes in 0.5 s since resume
    expect(tracker.current.rate).toBe(2000)
    tracker.restart(2) // a step back is no progress, not a negative rate
    now = 61_000
    tracker.sent(2, 10)
    expect(tracker.current.rate).toBeGreaterThanOrEqual(0)
  })
})
