// The moments a connection the store holds can be ended by the server (pg_terminate_backend:
// FATAL 57P01) and reach the client in the same chunk as the message that handed the connection
// over: the end of the statement before, or the end of the connection's start-up. A connection
// with no 'error' listener at that moment throws the error out of the socket's read: the process
// ends. The proxy holds the server's replies until the backend is gone, then delivers them at once.
import { randomBytes } from 'node:crypto'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { proxiedPostgres } from './tcp-proxy.ts'

const postgres = await postgresOrSkip()
const schema = `webhooks_term_${randomBytes(6).toString('hex')}`
const admin = new pg.Pool({ connectionString: postgres.url, max: 2 })
let n = 0
const table = () => `events_${++n}`
afterAll(async () => {
  if (postgres.available) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await admin.end()
})

/** Errors no listener took: each one would have ended a worker process. */
const uncaught: unknown[] = []
const record = (error: unknown) => void uncaught.push(error)
beforeEach(() => {
  uncaught.length = 0
  process.on('uncaughtException', record)
})
afterEach(() => {
  process.off('uncaughtException', record)
})

describe.skipIf(!postgres.available)('connections the server ends at the moment they change hands', () => {
  const event = (key: string) => ({ key, eventType: 'X', body: '{}', receivedAt: 1 })

  /** A proxy to PostgreSQL, and a URL through it whose connections are named `app`. */
  async function proxied() {
    const proxied = await proxiedPostgres(postgres.url, 'term')
    // Cut, whatever the test's outcome: no transaction left holding locks on the schema.
    onTestFinished(() => proxied.proxy.close())
    return proxied
  }

  /** A store through a proxy, with `keys` stored and claimed by `w`. */
  async function setUp(max: number, keys: string[]) {
    const { proxy, app, url } = await proxied()
    const store = postgresStore(url, { schema, table: table(), max, connectTimeoutMs: 30_000 })
    for (const key of keys) await store.insert(event(key))
    await store.claim({ owner: 'w', limit: keys.length, now: 10, leaseMs: 3_600_000 })
    return { proxy, app, store }
  }

  /** The backends of `app` in `state`, whose last statement was `query` when given. */
  const backends = async (app: string, state: string, query?: string) =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = $2
           AND ($3::text IS NULL OR query = $3)`,
        [app, state, query ?? null],
      )
    ).rows.map((r) => r.pid)

  /** Ends the backends, then lets the held replies (and each FATAL after them) through at once. */
  async function terminateHeld(hold: { serverClosed: Promise<void>; flush(): void }, pids: number[]) {
    expect(pids).toHaveLength(1)
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids])
    await hold.serverClosed
    hold.flush()
  }

  it("hands a waiting transaction the pool's only connection, ended right after its last statement", async () => {
    const { proxy, app, store } = await setUp(1, ['a'])
    const hold = proxy.holdReplies()
    const pinged = store.ping!()
    // The pool is full: the transaction waits for the connection the ping returns.
    const begun = store.begin!('a', 'w')
    await expect.poll(() => backends(app, 'idle', 'SELECT 1')).toHaveLength(1)
    await terminateHeld(hold, await backends(app, 'idle'))
    await pinged
    await expect(begun).rejects.toMatchObject({ code: 'store_unavailable' })
    expect(uncaught).toEqual([])
    // The pool dropped that connection; the next transaction gets a new one.
    const tx = await store.begin!('a', 'w')
    expect(await tx.commitDone(20)).toBe(true)
    await store.close()
  })

  it('hands a transaction a new connection that is ended as soon as it has started', async () => {
    const { proxy, app, store } = await setUp(2, ['a', 'b'])
    // The pool's connection is taken: the next transaction opens another.
    const first = await store.begin!('a', 'w')
    const hold = proxy.holdReplies()
    const begun = store.begin!('b', 'w')
    await expect.poll(() => backends(app, 'idle')).toHaveLength(1)
    await terminateHeld(hold, await backends(app, 'idle'))
    await expect(begun).rejects.toMatchObject({ code: 'store_unavailable' })
    expect(uncaught).toEqual([])
    expect(await first.commitDone(20)).toBe(true)
    const tx = await store.begin!('b', 'w')
    expect(await tx.commitDone(20)).toBe(true)
    await store.close()
  })

  it("ends a transaction whose connection is ended between its statements, idle in the handler's hands", async () => {
    const { proxy, app, store } = await setUp(1, ['a'])
    const tx = await store.begin!('a', 'w')
    await tx.query('SELECT 1')
    const hold = proxy.holdReplies()
    await terminateHeld(hold, await backends(app, 'idle in transaction'))
    // The client has read the FATAL (and closed its end) before the handler's next statement.
    await expect.poll(() => proxy.connections).toBe(0)
    expect(uncaught).toEqual([])
    await expect(tx.query('SELECT 1')).rejects.toMatchObject({ code: 'store_unavailable', isRetryable: true })
    await expect(tx.commitDone(20)).rejects.toMatchObject({ code: 'store_unavailable' })
    const again = await store.begin!('a', 'w')
    expect(await again.commitDone(20)).toBe(true)
    await store.close()
  })

  it("listens on a caller's pool through a new connection ended as soon as it has started", async () => {
    const { proxy, app, url } = await proxied()
    const pool = new pg.Pool({ connectionString: url, max: 2 })
    // The caller's part (see the README): errors of the pool's idle connections.
    pool.on('error', () => {})
    const store = postgresStore(pool, { schema, table: table() })
    await store.ping!()
    // The pool's connection is taken: the listener opens another.
    const taken = await pool.connect()
    const { pid } = (await taken.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!
    const hold = proxy.holdReplies()
    let wakes = 0
    const subscribed = store.subscribe!(() => void wakes++)
    const others = async () => (await backends(app, 'idle')).filter((p) => p !== pid)
    await expect.poll(others).toHaveLength(1)
    await terminateHeld(hold, await others())
    const unsubscribe = await subscribed
    expect(uncaught).toEqual([])
    // It listens again on a new connection (and wakes the worker once it does).
    await expect.poll(() => wakes, { timeout: 5_000 }).toBeGreaterThanOrEqual(1)
    taken.release()
    await unsubscribe()
    await store.close()
    await pool.end()
  })
})
