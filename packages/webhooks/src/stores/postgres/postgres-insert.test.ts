// InsertBatcher alone, on a stand-in for the database (the real one is exercised by postgres.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebhookError } from '../../errors.ts'
import type { NewEvent } from '../store.ts'
import type { PgDatabase } from './postgres-database.ts'
import { InsertBatcher } from './postgres-insert.ts'
import { tableNames } from './postgres-names.ts'

interface Call {
  keys: string[]
  answer: (result: { keys?: string[]; error?: unknown }) => void
}

/** A database whose INSERTs wait until the test answers them. */
function fakeDatabase() {
  const calls: Call[] = []
  const pool = {
    query: (_text: string, values?: unknown[]) =>
      new Promise((resolve, reject) => {
        const keys = (values?.[0] ?? []) as string[]
        calls.push({
          keys,
          answer: ({ keys: inserted = keys, error }) =>
            error
              ? reject(error)
              : resolve({
                  // As the statement answers: a row per new key when only some were new.
                  rows:
                    inserted.length > 0 && inserted.length < keys.length
                      ? inserted.map((key) => ({ inserted: inserted.length, key }))
                      : [{ inserted: inserted.length, key: null }],
                  rowCount: 1,
                }),
        })
      }),
  }
  const db = {
    names: tableNames('t', undefined),
    pool: async () => pool,
    unavailable: (error: unknown) =>
      new WebhookError(`PostgreSQL failed: ${(error as Error).message}`, { code: 'store_unavailable' }),
  } as unknown as PgDatabase
  return { db, calls }
}

const event = (key: string): NewEvent => ({ key, eventType: 'X', body: '{}', receivedAt: 1 })
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('InsertBatcher', () => {
  it('sends what arrives in one turn as one batch, and keeps at most inFlight batches running', async () => {
    const { db, calls } = fakeDatabase()
    const batcher = new InsertBatcher(db, { inFlight: 2, rows: 3, fill: 3, queued: 100, delayMs: 0 })
    const outcomes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((key) => batcher.insert(event(key)))
    await turn()
    expect(calls.map((c) => c.keys)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ])
    calls[0]!.answer({ keys: ['a', 'c'] })
    await expect(Promise.all(outcomes.slice(0, 3))).resolves.toEqual(['inserted', 'duplicate', 'inserted'])
    // A slot freed, but one request (fewer than `fill`) waits while a batch is in flight.
    await turn()
    expect(calls).toHaveLength(2)
    calls[1]!.answer({})
    await turn()
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
    calls[2]!.answer({})
    await expect(Promise.all(outcomes)).resolves.toHaveLength(7)
    await batcher.idle()
  })

  it('while a batch is in flight, starts another only once `fill` requests wait', async () => {
    const { db, calls } = fakeDatabase()
    const batcher = new InsertBatcher(db, { inFlight: 4, rows: 100, fill: 3, queued: 100, delayMs: 0 })
    const first = batcher.insert(event('a'))
    await turn()
    const few = ['b', 'c'].map((key) => batcher.insert(event(key)))
    await turn()
    // Two waiting: they wait for the batch in flight.
    expect(calls.map((c) => c.keys)).toEqual([['a']])
    const more = ['d', 'e'].map((key) => batcher.insert(event(key)))
    await turn()
    // Four waiting: a second batch goes while the first is still in flight.
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'd', 'e']])
    const last = batcher.insert(event('f'))
    await turn()
    expect(calls).toHaveLength(2)
    calls[0]!.answer({})
    await expect(first).resolves.toBe('inserted')
    await turn()
    expect(calls).toHaveLength(2)
    calls[1]!.answer({ keys: ['b', 'e'] })
    await expect(Promise.all([...few, ...more])).resolves.toEqual([
      'inserted',
      'duplicate',
      'duplicate',
      'inserted',
    ])
    // No batch in flight: what waits goes, however little.
    await turn()
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'd', 'e'], ['f']])
    calls[2]!.answer({})
    await expect(last).resolves.toBe('inserted')
    await batcher.idle()
  })

  it('does not send a key already on its way: the second request is a duplicate, or gets the same failure', async () => {
    const { db, calls } = fakeDatabase()
    const batcher = new InsertBatcher(db, { inFlight: 4, rows: 100, fill: 1, queued: 100, delayMs: 0 })
    const first = batcher.insert(event('a'))
    await turn()
    const twin = batcher.insert(event('a'))
    const other = batcher.insert(event('b'))
    await turn()
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b']])
    calls[0]!.answer({})
    await expect(Promise.all([first, twin])).resolves.toEqual(['inserted', 'duplicate'])
    const failing = batcher.insert(event('c'))
    const failingTwin = batcher.insert(event('c'))
    await turn()
    calls[2]!.answer({ error: new Error('connection terminated') })
    for (const outcome of [failing, failingTwin])
      await expect(outcome).rejects.toMatchObject({ code: 'store_unavailable' })
    calls[1]!.answer({})
    await expect(other).resolves.toBe('inserted')
  })

  it('sends a batch again when PostgreSQL ended it to break a deadlock (40P01), at most three times', async () => {
    const { db, calls } = fakeDatabase()
    const batcher = new InsertBatcher(db, { inFlight: 1, rows: 100, fill: 1, queued: 100, delayMs: 0 })
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' })
    const retried = batcher.insert(event('a'))
    await turn()
    calls[0]!.answer({ error: deadlock })
    await turn()
    calls[1]!.answer({})
    await expect(retried).resolves.toBe('inserted')
    const given = batcher.insert(event('b'))
    for (let i = 2; i < 5; i++) {
      await turn()
      calls[i]?.answer({ error: deadlock })
    }
    await expect(given).rejects.toMatchObject({ code: 'store_unavailable' })
    expect(calls).toHaveLength(5)
  })

  it("reads the count of new rows on a caller's pool that parses integers as strings", async () => {
    const pool = { query: async () => ({ rows: [{ inserted: '2', key: null }], rowCount: 1 }) }
    const db = { names: tableNames('t', undefined), pool: async () => pool } as unknown as PgDatabase
    const batcher = new InsertBatcher(db, { inFlight: 1, rows: 100, fill: 1, queued: 100, delayMs: 0 })
    await expect(Promise.all([batcher.insert(event('a')), batcher.insert(event('b'))])).resolves.toEqual([
      'inserted',
      'inserted',
    ])
  })

  describe('group commit under load', () => {
    afterEach(() => vi.useRealTimers())
    // Only the wait's timer is faked: a turn of the event loop (setImmediate) stays real.
    const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })

    it('after a batch of several rows, the next waits up to delayMs for more senders', async () => {
      fakeTimers()
      const { db, calls } = fakeDatabase()
      const batcher = new InsertBatcher(db, { inFlight: 4, rows: 100, fill: 3, queued: 100, delayMs: 5 })
      const first = ['a', 'b'].map((key) => batcher.insert(event(key)))
      await turn()
      expect(calls.map((c) => c.keys)).toEqual([['a', 'b']])
      calls[0]!.answer({})
      await Promise.all(first)
      const next = ['c', 'd'].map((key) => batcher.insert(event(key)))
      await turn()
      await turn()
      // Two waiting, fewer than `fill`: they wait for more.
      expect(calls).toHaveLength(1)
      vi.advanceTimersByTime(5)
      await turn()
      expect(calls.map((c) => c.keys)).toEqual([
        ['a', 'b'],
        ['c', 'd'],
      ])
      calls[1]!.answer({})
      await expect(Promise.all(next)).resolves.toEqual(['inserted', 'inserted'])
    })

    it('sends at once when `fill` requests wait, or when the last batch carried one row', async () => {
      fakeTimers()
      const { db, calls } = fakeDatabase()
      const batcher = new InsertBatcher(db, { inFlight: 4, rows: 100, fill: 3, queued: 100, delayMs: 1000 })
      const lone = batcher.insert(event('a'))
      await turn()
      calls[0]!.answer({})
      await lone
      // The last batch carried one row: no wait.
      const pair = ['b', 'c'].map((key) => batcher.insert(event(key)))
      await turn()
      expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c']])
      calls[1]!.answer({})
      await Promise.all(pair)
      // The last carried two: the next waits, until a third request fills the batch.
      const three = ['d', 'e'].map((key) => batcher.insert(event(key)))
      await turn()
      expect(calls).toHaveLength(2)
      three.push(batcher.insert(event('f')))
      await turn()
      expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c'], ['d', 'e', 'f']])
      calls[2]!.answer({})
      await expect(Promise.all(three)).resolves.toHaveLength(3)
      await batcher.idle()
    })
  })

  it('refuses at once past the queue limit instead of piling up', async () => {
    const { db } = fakeDatabase()
    const batcher = new InsertBatcher(db, { inFlight: 1, rows: 1, fill: 1, queued: 2, delayMs: 0 })
    void batcher.insert(event('a'))
    void batcher.insert(event('b'))
    await expect(batcher.insert(event('c'))).rejects.toMatchObject({
      code: 'store_unavailable',
      isRetryable: true,
    })
  })
})
