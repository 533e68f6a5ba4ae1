// The listening connection's reconnects, on a stand-in for the database (the real one is exercised
// by postgres.test.ts, "through the database faults").
import { backoffDelay } from '@service-sdk/core/internal'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Listener, RECONNECT } from './postgres-listen.ts'
import type { PgClient } from './postgres-pool.ts'

/** A connection whose 'error' the test can raise. */
function fakeClient() {
  const listeners = new Map<string, (arg?: unknown) => void>()
  const client: PgClient & { fail(): void } = {
    query: async () => ({ rows: [], rowCount: 0 }),
    on: (event, listener) => listeners.set(event, listener),
    release: () => {},
    fail: () => listeners.get('error')?.(new Error('terminating connection')),
  }
  return client
}

type Answer = Promise<{ rows: never[]; rowCount: number }>
const answer = (): Answer => Promise.resolve({ rows: [], rowCount: 0 })
const never = (): Answer => new Promise(() => {})

/** Connections opened one after another: the nth answers `query(text, n)`; each notes its release. */
function connections(query: (text: string, n: number) => Answer) {
  const opened: Array<{ released: boolean }> = []
  const open = async (): Promise<PgClient> => {
    const state = { released: false }
    opened.push(state)
    const n = opened.length
    return {
      ...fakeClient(),
      query: (text) => query(text, n),
      release: () => {
        state.released = true
      },
    }
  }
  return { opened, open }
}

describe('Listener reconnects', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("waits core's backoffDelay under the RECONNECT policy between attempts, and starts over once listening", async () => {
    const start = Date.now()
    const opened: number[] = []
    let refusals = 6
    let client = fakeClient()
    const wake = vi.fn()
    const listener = new Listener({
      channel: 'c',
      wake,
      random: () => 0,
      open: async () => {
        opened.push(Date.now() - start)
        if (refusals-- > 0) throw new Error('connection refused')
        client = fakeClient()
        return client
      },
    })
    await listener.connect()
    await vi.advanceTimersByTimeAsync(60_000)
    // Jittered doubling from 250 ms, capped at 5 s: with no jitter drawn, half of each ceiling.
    const delays = [0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, RECONNECT, undefined, () => 0)!)
    expect(delays).toEqual([125, 250, 500, 1_000, 2_000, 2_500])
    expect(opened.slice(1).map((at, i) => at - opened[i]!)).toEqual(delays)
    expect(wake).toHaveBeenCalledTimes(1)

    // Listening again resets the backoff: the next loss waits the first delay again.
    const lostAt = Date.now() - start
    client.fail()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(opened.at(-1)! - lostAt).toBe(125)
    expect(wake).toHaveBeenCalledTimes(2)
    await listener.stop()
  })

  it('draws the jitter: a whole ceiling at most, never more than 5 s', async () => {
    const start = Date.now()
    const opened: number[] = []
    const listener = new Listener({
      channel: 'c',
      wake: () => {},
      random: () => 0.999,
      open: async () => {
        opened.push(Date.now() - start)
        throw new Error('connection refused')
      },
    })
    await listener.connect()
    await vi.advanceTimersByTimeAsync(30_000)
    await listener.stop()
    const gaps = opened.slice(1).map((at, i) => at - opened[i]!)
    expect(gaps.slice(0, 3)).toEqual([250, 500, 1_000])
    expect(Math.max(...gaps)).toBe(4_998)
    // Stopped: no attempt after it.
    const attempts = opened.length
    await vi.advanceTimersByTimeAsync(30_000)
    expect(opened).toHaveLength(attempts)
  })

  it('drops a listening connection that does not answer its check within 5 s, and listens on another', async () => {
    let answers = true
    const { opened, open } = connections((text) => (text === 'SELECT 1' && !answers ? never() : answer()))
    const listener = new Listener({ channel: 'c', wake: () => {}, random: () => 0, open })
    await listener.connect()
    // Checked every 10 s: answered twice.
    await vi.advanceTimersByTimeAsync(25_000)
    expect(opened).toEqual([{ released: false }])
    // The check at 30 s is not answered: dropped at 35 s, opened again after the first backoff.
    answers = false
    await vi.advanceTimersByTimeAsync(9_999)
    expect(opened).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1 + 125)
    expect(opened).toEqual([{ released: true }, { released: false }])
    await listener.stop()
  })

  it('gives up a LISTEN not answered within 5 s (a black-holed database) and listens on another connection', async () => {
    const { opened, open } = connections((_, n) => (n === 1 ? never() : answer()))
    const wake = vi.fn()
    const listener = new Listener({ channel: 'c', wake, random: () => 0, open })
    let connected = false
    void listener.connect().then(() => {
      connected = true
    })
    await vi.advanceTimersByTimeAsync(4_999)
    expect(connected).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(connected).toBe(true)
    await vi.advanceTimersByTimeAsync(125)
    expect(opened).toEqual([{ released: true }, { released: false }])
    expect(wake).toHaveBeenCalledTimes(1)
    await listener.stop()
  })

  it('stopped while its LISTEN is in flight: neither wakes nor checks the connection afterwards', async () => {
    const listened = Promise.withResolvers<{ rows: never[]; rowCount: number }>()
    const queries: string[] = []
    const { open } = connections((text) => {
      queries.push(text)
      return text.startsWith('LISTEN') ? listened.promise : answer()
    })
    const wake = vi.fn()
    const listener = new Listener({ channel: 'c', wake, open })
    const connecting = listener.connect()
    await vi.advanceTimersByTimeAsync(0)
    await listener.stop()
    listened.resolve({ rows: [], rowCount: 0 })
    await connecting
    await vi.advanceTimersByTimeAsync(60_000)
    expect(wake).not.toHaveBeenCalled()
    expect(queries).toEqual(['LISTEN "c"'])
  })
})
