import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { orderingContract } from '../../../test/ordering-contract.ts'
import { storeContract } from '../../../test/store-contract.ts'
import { sqliteStore } from './sqlite.ts'
import { SqliteEngine } from './sqlite-engine.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-sqlite-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const file = () => join(dir, `store-${++n}.db`)

/** The inbox table as releases before order keys created it, plus `extraColumns`. */
const OLD_TABLE = (extraColumns = '') => `CREATE TABLE webhook_events (seq INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE, event_type TEXT NOT NULL, body TEXT NOT NULL, received_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT, lease_until INTEGER, last_error TEXT, finished_at INTEGER${extraColumns});`

storeContract('sqliteStore', async () => sqliteStore(file()))
storeContract("sqliteStore({ thread: 'main' })", async () => sqliteStore(file(), { thread: 'main' }))
orderingContract('sqliteStore', async () => sqliteStore(file()))

describe('sqliteStore', () => {
  it('survives reopening: what was acknowledged is there', async () => {
    const path = file()
    const a = sqliteStore(path)
    await a.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
    await a.close()
    const b = sqliteStore(path)
    expect(await b.get('k')).toMatchObject({ key: 'k', status: 'pending' })
    await b.close()
  })

  it('uses WAL and synchronous FULL by default, NORMAL when asked', async () => {
    const { DatabaseSync } = await import('node:sqlite')
    const full = file()
    await sqliteStore(full).close()
    const db = new DatabaseSync(full)
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    db.close()
    const normal = sqliteStore(file(), { synchronous: 'NORMAL' })
    await normal.close()
    expect(() => sqliteStore(file(), { synchronous: 'OFF' as 'FULL' })).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        issues: [
          { path: 'synchronous', message: 'must be "FULL" or "NORMAL" or "EXTRA", got the string "OFF"' },
        ],
      }),
    )
  })

  it('adds the order_key column to a table made before order keys existed, keeping its events', async () => {
    const path = file()
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(path)
    old.exec(`${OLD_TABLE()}
      INSERT INTO webhook_events (key, event_type, body, received_at, next_attempt_at) VALUES ('old', 'X', '{}', 1, 1)`)
    old.close()
    // Two stores opening the old file at once: one adds the column, the other finds it there.
    const [a, b] = [sqliteStore(path), sqliteStore(path, { thread: 'main' })]
    expect(await a.get('old')).toMatchObject({ key: 'old', status: 'pending', orderKey: null })
    expect(await b.insert({ key: 'new', eventType: 'X', body: '{}', receivedAt: 2, orderKey: 'k' })).toBe(
      'inserted',
    )
    expect(await a.get('new')).toMatchObject({ orderKey: 'k' })
    await Promise.all([a.close(), b.close()])
  })

  it('upgrades a table of the previous release: drops its (status, seq) index, counts and lists from the others', async () => {
    const path = file()
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(path)
    // The previous release's schema, as it created it.
    old.exec(`${OLD_TABLE(', order_key TEXT')}
      CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at, seq) WHERE status = 'pending';
      CREATE INDEX webhook_events_lease ON webhook_events (lease_until) WHERE status = 'processing';
      CREATE INDEX webhook_events_status ON webhook_events (status, seq);
      CREATE INDEX webhook_events_order ON webhook_events (order_key, seq) WHERE order_key IS NOT NULL AND status IN ('pending', 'processing');
      INSERT INTO webhook_events (key, event_type, body, received_at, next_attempt_at, status, finished_at, last_error)
        VALUES ('p', 'X', '{}', 1, 1, 'pending', NULL, NULL), ('d', 'X', '{}', 2, 2, 'done', 5, NULL),
               ('x', 'X', '{}', 3, 3, 'dead', 6, 'boom'), ('d2', 'X', '{}', 4, 4, 'done', 7, NULL)`)
    old.close()
    const store = sqliteStore(path)
    expect(await store.counts()).toEqual({ pending: 1, processing: 0, done: 2, dead: 1 })
    expect((await store.list({ status: 'done' })).map((e) => e.key)).toEqual(['d', 'd2'])
    expect((await store.list({ status: 'dead' })).map((e) => e.key)).toEqual(['x'])
    expect((await store.list({ status: 'done', after: 'd' })).map((e) => e.key)).toEqual(['d2'])
    expect(await store.prune({ before: 10, status: 'dead' })).toBe(1)
    expect(await store.counts()).toEqual({ pending: 1, processing: 0, done: 2, dead: 0 })
    await store.close()
    const db = new DatabaseSync(path)
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      )
      .all()
      .map((row) => row.name)
    db.close()
    expect(indexes).toEqual([
      'webhook_events_dead',
      'webhook_events_due',
      'webhook_events_lease',
      'webhook_events_order',
    ])
  })

  it('rewrites the keys an older file holds that an index now holds as digests, and still finds them', async () => {
    const path = file()
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(path)
    // Keys the release before `originals` stored as they were: SQLite kept a NUL and any length.
    const nul = 'evt-\u0000-nul'
    const long = `evt-${'x'.repeat(3_000)}`
    const lane = `lane-\u0000-${'y'.repeat(2_000)}`
    old.exec(OLD_TABLE(', order_key TEXT'))
    const insert = old.prepare(
      'INSERT INTO webhook_events (key, event_type, body, received_at, next_attempt_at, order_key) VALUES (?, ?, ?, 1, 1, ?)',
    )
    insert.run(nul, 'X', '{}', lane)
    insert.run(long, 'X', '{"b":"\u0000"}', null)
    insert.run('short', 'X', '{}', null)
    old.close()
    // Two stores opening it at once: one rewrites, the other waits and finds it done.
    const [store, other] = [sqliteStore(path), sqliteStore(path, { thread: 'main' })]
    for (const key of [nul, long, 'short'])
      expect(await store.insert({ key, eventType: 'X', body: '{}', receivedAt: 2 })).toBe('duplicate')
    expect(await other.get(nul)).toMatchObject({ key: nul, orderKey: lane })
    expect(await store.get(long)).toMatchObject({ key: long, body: '{"b":"\u0000"}' })
    expect((await store.list()).map((e) => e.key)).toEqual([nul, long, 'short'])
    await store.insert({ key: 'next', eventType: 'X', body: '{}', receivedAt: 3, orderKey: lane })
    const claimed = await store.claim({ owner: 'w', limit: 10, now: 10, leaseMs: 1000 })
    expect(claimed.map((e) => e.key).sort()).toEqual([nul, long, 'short'].sort())
    await Promise.all([store.close(), other.close()])
  })

  it('stores an event leased at insert: processing, first attempt, claimed by nobody until its lease expires', async () => {
    const store = sqliteStore(file())
    const lease = { owner: 'w:arrival', until: 1_000 }
    expect(await store.insert({ key: 'a', eventType: 'X', body: '{}', receivedAt: 10, lease })).toBe(
      'inserted',
    )
    expect(await store.get('a')).toMatchObject({ status: 'processing', attempts: 1, leaseUntil: 1_000 })
    expect(await store.counts()).toEqual({ pending: 0, processing: 1, done: 0, dead: 0 })
    expect(await store.claim({ owner: 'w:other', limit: 10, now: 999, leaseMs: 100 })).toEqual([])
    // Its holder died: once the lease expires, a claim takes it (the next attempt).
    expect(await store.claim({ owner: 'w:other', limit: 10, now: 1_000, leaseMs: 100 })).toMatchObject([
      { key: 'a', attempts: 2 },
    ])
    expect(await store.settle('a', 'w:arrival', { status: 'done', at: 1_001 })).toBe(false)
    expect(await store.settle('a', 'w:other', { status: 'done', at: 1_001 })).toBe(true)
    await store.close()
  })

  it('leases at insert neither a duplicate (it stays as it is) nor an event with an order key', async () => {
    const store = sqliteStore(file())
    const lease = { owner: 'w:1', until: 1_000 }
    await store.insert({ key: 'a', eventType: 'X', body: '{}', receivedAt: 10 })
    expect(await store.insert({ key: 'a', eventType: 'X', body: '{"x":1}', receivedAt: 11, lease })).toBe(
      'duplicate',
    )
    expect(await store.get('a')).toMatchObject({
      status: 'pending',
      attempts: 0,
      body: '{}',
      leaseUntil: null,
    })
    await store.insert({ key: 'b', eventType: 'X', body: '{}', receivedAt: 12, orderKey: 'k', lease })
    expect(await store.get('b')).toMatchObject({ status: 'pending', attempts: 0, orderKey: 'k' })
    await store.close()
  })

  it('commits many concurrent inserts in one group', async () => {
    const store = sqliteStore(file())
    const outcomes = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        store.insert({ key: `k${i}`, eventType: 'X', body: '{}', receivedAt: i }),
      ),
    )
    expect(outcomes.every((o) => o === 'inserted')).toBe(true)
    expect((await store.counts()).pending).toBe(500)
    await store.close()
  })

  it('commits a claim made while events arrive with the next insert, in one transaction', async () => {
    const write = vi.spyOn(SqliteEngine.prototype, 'write')
    const store = sqliteStore(file(), { thread: 'main' })
    await store.insert({ key: 'a', eventType: 'X', body: '{}', receivedAt: 1 })
    const claimed = store.claim({ owner: 'w:1', limit: 10, now: 2, leaseMs: 1000 })
    // A turn later, when the claim alone would have been sent, the next event arrives.
    await new Promise((resolve) => setImmediate(resolve))
    const inserted = store.insert({ key: 'b', eventType: 'X', body: '{}', receivedAt: 3 })
    expect((await claimed).map((e) => e.key)).toEqual(['a'])
    expect(await inserted).toBe('inserted')
    expect(write.mock.calls.map(([ops]) => ops.map((op) => op.t))).toEqual([['insert'], ['claim', 'insert']])
    // With no event arriving, the claim waits for none: it commits on its own.
    expect(await store.claim({ owner: 'w:2', limit: 10, now: 4, leaseMs: 1000 })).toMatchObject([
      { key: 'b' },
    ])
    write.mockRestore()
    await store.close()
  })

  it('after a commit of several events, waits up to 1 ms to group the next ones', async () => {
    const write = vi.spyOn(SqliteEngine.prototype, 'write')
    const store = sqliteStore(file(), { thread: 'main' })
    const event = (key: string) => ({ key, eventType: 'X', body: '{}', receivedAt: 1 })
    await Promise.all(['a', 'b', 'c'].map((key) => store.insert(event(key))))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const d = store.insert(event('d'))
      // Turns later, before the 1 ms is up, the next event arrives: the same commit takes it.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve))
      const e = store.insert(event('e'))
      await new Promise((resolve) => setImmediate(resolve))
      expect(write).toHaveBeenCalledTimes(1)
      vi.advanceTimersByTime(1)
      expect(await Promise.all([d, e])).toEqual(['inserted', 'inserted'])
    } finally {
      vi.useRealTimers()
    }
    expect(write.mock.calls.map(([ops]) => ops.length)).toEqual([3, 2])
    write.mockRestore()
    await store.close()
  })

  it('refuses work once closed, with a retryable store error', async () => {
    const store = sqliteStore(file())
    await store.close()
    await expect(store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })).rejects.toMatchObject(
      {
        code: 'store_unavailable',
      },
    )
  })

  it('reports a file it cannot open as a retryable store error on first use', async () => {
    const store = sqliteStore(join(dir, 'no', 'such', 'dir', 'x.db'))
    await expect(store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })).rejects.toMatchObject(
      {
        code: 'store_unavailable',
        isRetryable: true,
        message: expect.stringMatching(/cannot open .*x\.db/),
      },
    )
    // Later calls keep the reason, also once the thread that could not open the file has exited.
    await new Promise((resolve) => setTimeout(resolve, 200))
    await expect(store.counts()).rejects.toMatchObject({ message: expect.stringMatching(/cannot open/) })
    await store.close()
  })

  it('refuses a table name that is not a plain identifier', () => {
    expect(() => sqliteStore(file(), { table: 'x; DROP TABLE y' })).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        issues: [expect.objectContaining({ path: 'table' })],
      }),
    )
  })
})
