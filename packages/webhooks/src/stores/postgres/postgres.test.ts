import { randomBytes } from 'node:crypto'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { orderingContract } from '../../../test/ordering-contract.ts'
import { storeContract } from '../../../test/store-contract.ts'
import { tcpProxy } from '../../../test/tcp-proxy.ts'
import type { WebhookEvent } from '../../events/events.ts'
import type { WebhookStore } from '../store.ts'
import { postgresStore } from './postgres.ts'

const postgres = await postgresOrSkip()
// One schema per run (and a table per test), so parallel runs never see each other's rows.
const schema = `webhooks_test_${randomBytes(6).toString('hex')}`
let n = 0
const table = () => `events_${++n}`

const admin = new pg.Pool({ connectionString: postgres.url, max: 4 })
afterAll(async () => {
  if (postgres.available) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await admin.end()
})

describe('postgresStore options', () => {
  it('refuses a timeout or pool size that is not a positive number, before connecting', () => {
    for (const bad of [{ statementTimeoutMs: 0 }, { connectTimeoutMs: -1 }, { max: Number.NaN }]) {
      expect(() => postgresStore('postgres://127.0.0.1:1/none', bad)).toThrow(
        expect.objectContaining({ code: 'validation_error' }),
      )
    }
  })
})

describe.skipIf(!postgres.available)('postgresStore (real PostgreSQL)', () => {
  storeContract('postgresStore from a URL', async () =>
    postgresStore(postgres.url, { schema, table: table() }),
  )
  storeContract('postgresStore on a caller-owned pool', async () =>
    postgresStore(admin, { schema, table: table() }),
  )
  orderingContract('postgresStore', async () => postgresStore(postgres.url, { schema, table: table() }))

  it('creates a new table from several processes at once without failing (no deadlock between them)', async () => {
    for (let round = 0; round < 5; round++) {
      const t = table()
      const stores = [1, 2, 3].map(() => postgresStore(postgres.url, { schema, table: t }))
      const outcomes = await Promise.all(
        stores.map((s, i) => s.insert({ key: `k${i}`, eventType: 'X', body: '{}', receivedAt: 1 })),
      ).finally(() => Promise.all(stores.map((s) => s.close())))
      expect(outcomes).toEqual(['inserted', 'inserted', 'inserted'])
    }
  })

  it('stores every body of a batch byte for byte, whatever it holds, and answers duplicates within it', async () => {
    const bodies = [
      '{"a":"quote \\" backslash \\\\ comma , braces {} NULL"}',
      '{"b":"ünïcödé 😀","c":[1,2,3]}',
      '\n\t{ "spaced" : true }\r\n',
      // Not JSON a receiver would store, but the store must not split it: the batch goes another way.
      '{"d":"record\u001eseparator"}',
      '{}',
    ]
    for (const store of [
      postgresStore(postgres.url, { schema, table: table() }),
      postgresStore(admin, { schema, table: table() }),
    ]) {
      await store.insert({ key: 'old', eventType: 'X', body: '{}', receivedAt: 1 })
      for (const batch of [bodies, bodies.filter((b) => !b.includes('\u001e'))]) {
        const prefix = `${batch.length}-`
        const outcomes = await Promise.all([
          ...batch.map((body, i) =>
            store.insert({ key: `${prefix}${i}`, eventType: 'X', body, receivedAt: 2, orderKey: `o${i}` }),
          ),
          store.insert({ key: 'old', eventType: 'X', body: '{}', receivedAt: 2 }),
        ])
        expect(outcomes).toEqual([...batch.map(() => 'inserted'), 'duplicate'])
        for (const [i, body] of batch.entries())
          expect(await store.get(`${prefix}${i}`)).toMatchObject({ body, orderKey: `o${i}`, receivedAt: 2 })
      }
      await store.close()
    }
  })

  it('adds the order_key column to a table made before order keys existed, keeping its events', async () => {
    const old = table()
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}";
      CREATE TABLE "${schema}"."${old}" (seq bigserial PRIMARY KEY, key text NOT NULL UNIQUE, event_type text NOT NULL,
        body text NOT NULL, received_at bigint NOT NULL, status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL, lease_owner text, lease_until bigint,
        last_error text, finished_at bigint);
      INSERT INTO "${schema}"."${old}" (key, event_type, body, received_at, next_attempt_at) VALUES ('old', 'X', '{}', 1, 1)`)
    // Three processes upgrading it at once: none fails, none deadlocks.
    const stores = [
      postgresStore(postgres.url, { schema, table: old }),
      postgresStore(admin, { schema, table: old }),
      postgresStore(postgres.url, { schema, table: old }),
    ]
    const [before, inserted] = await Promise.all([
      stores[0]!.get('old'),
      stores[1]!.insert({ key: 'new', eventType: 'X', body: '{}', receivedAt: 2, orderKey: 'k' }),
      stores[2]!.counts(),
    ])
    expect(before).toMatchObject({ key: 'old', status: 'pending', orderKey: null })
    expect(inserted).toBe('inserted')
    expect(await stores[0]!.get('new')).toMatchObject({ orderKey: 'k' })
    await Promise.all(stores.map((s) => s.close()))
  })

  it('one row PostgreSQL refuses never fails its batch: the others are stored, only that one fails', async () => {
    const t = table()
    const store = postgresStore(postgres.url, { schema, table: t })
    await store.ping!()
    // Something of the user's that refuses some rows: a constraint here, a trigger elsewhere.
    await admin.query(
      `ALTER TABLE "${schema}"."${t}" ADD CONSTRAINT no_poison CHECK (event_type <> 'POISON')`,
    )
    const events = Array.from({ length: 150 }, (_, i) => ({
      key: `k${i}`,
      eventType: i === 77 ? 'POISON' : 'X',
      body: '{}',
      receivedAt: 1,
    }))
    const outcomes = await Promise.allSettled(events.map((e) => store.insert(e)))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(149)
    expect(outcomes[77]).toMatchObject({ status: 'rejected', reason: { code: 'store_unavailable' } })
    expect((await store.counts()).pending).toBe(149)
    await store.close()
  })

  it('rewrites the keys an older table holds that an index now holds as digests, and still finds them', async () => {
    const old = table()
    const q = `"${schema}"."${old}"`
    // A key PostgreSQL compressed into its index (it could hold it), one just over INDEXED_BYTES,
    // and a long order key: as the release before `originals` stored them.
    const compressible = `evt-${'a'.repeat(5_000)}`
    const long = `evt-${'é'.repeat(600)}`
    const lane = `lane-${'b'.repeat(4_000)}`
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}";
      CREATE TABLE ${q} (seq bigserial PRIMARY KEY, key text NOT NULL UNIQUE, event_type text NOT NULL,
        body text NOT NULL, received_at bigint NOT NULL, status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL, lease_owner text, lease_until bigint,
        last_error text, finished_at bigint, order_key text)`)
    await admin.query(
      `INSERT INTO ${q} (key, event_type, body, received_at, next_attempt_at, order_key) VALUES
        ($1, 'X', '{}', 1, 1, $3), ($2, 'X', '{}', 1, 1, NULL), ('short', 'X', '{}', 1, 1, 'k')`,
      [compressible, long, lane],
    )
    const store = postgresStore(postgres.url, { schema, table: old })
    expect(await store.insert({ key: compressible, eventType: 'X', body: '{}', receivedAt: 2 })).toBe(
      'duplicate',
    )
    expect(await store.insert({ key: long, eventType: 'X', body: '{}', receivedAt: 2 })).toBe('duplicate')
    expect(await store.insert({ key: 'short', eventType: 'X', body: '{}', receivedAt: 2 })).toBe('duplicate')
    expect(await store.get(compressible)).toMatchObject({ key: compressible, orderKey: lane })
    expect((await store.list()).map((e) => e.key)).toEqual([compressible, long, 'short'])
    // The long order key still holds back the next event of that key.
    await store.insert({ key: 'next', eventType: 'X', body: '{}', receivedAt: 3, orderKey: lane })
    const claimed = await store.claim({ owner: 'w', limit: 10, now: 10, leaseMs: 1000 })
    expect(claimed.map((e) => e.key).sort()).toEqual([compressible, long, 'short'].sort())
    const { rows } = await admin.query(`SELECT originals FROM ${q} WHERE key <> 'next' ORDER BY seq`)
    expect(rows.map((r) => r.originals !== null)).toEqual([true, true, false])
    await store.close()
  })

  it("never carries the connection string's password in its errors (message, toJSON, stack)", async () => {
    // A role named like the password: PostgreSQL's own message then holds it.
    const secret = 'S3cretPassw0rd'
    const url = new URL(postgres.url)
    url.username = secret
    url.password = secret
    const store = postgresStore(url.toString(), { schema, table: table() })
    const error = (await store
      .insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
      .catch((e) => e)) as Error
    await store.close()
    expect(error).toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('[REDACTED]') })
    expect(`${error.message} ${JSON.stringify(error)} ${error.stack}`).not.toContain(secret)
  })

  it("close() leaves a caller's pool open: the store never ends a pool it was given", async () => {
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 })
    onTestFinished(() => pool.end())
    const store = postgresStore(pool, { schema, table: table() })
    await store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
    await store.close()
    expect(pool.ended).toBe(false)
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
  })

  it('never hands the same event to two workers claiming at once (SKIP LOCKED)', async () => {
    const store = postgresStore(postgres.url, { schema, table: table(), max: 8 })
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.insert({ key: `k${i}`, eventType: 'X', body: '{}', receivedAt: 1 }),
      ),
    )
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, w) => store.claim({ owner: `w${w}`, limit: 40, now: 10, leaseMs: 1000 })),
    )
    const keys = claims.flat().map((e) => e.key)
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys.length).toBe(200)
    await store.close()
  })

  it('never leases two events of one key to two workers whose claims see different commits', async () => {
    // Two receivers: a-1 gets the lower seq but commits after a-2. Worker 1's claim sees only a-2
    // and takes it; a trigger holds that claim open (uncommitted) for 600 ms, as a preempted
    // process would. Meanwhile a-1 commits and worker 2 claims: its snapshot shows a-1 first in
    // line and a-2 still pending. Row locks alone let it take a-1: both would run at once.
    const t = table()
    const q = `"${schema}"."${t}"`
    const stores = [1, 2, 3].map(() => postgresStore(postgres.url, { schema, table: t }))
    const [receiver, worker1, worker2] = stores as [WebhookStore, WebhookStore, WebhookStore]
    await Promise.all(stores.map((store) => store.ping!()))
    await admin.query(`CREATE FUNCTION "${schema}".${t}_slow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.key = 'a-2' AND NEW.status = 'processing' THEN PERFORM pg_sleep(0.6); END IF; RETURN NEW; END $$;
      CREATE TRIGGER slow_claim AFTER UPDATE ON ${q} FOR EACH ROW EXECUTE FUNCTION "${schema}".${t}_slow()`)
    const slowReceiver = await admin.connect()
    try {
      await slowReceiver.query('BEGIN')
      await slowReceiver.query(
        `INSERT INTO ${q} (key, event_type, body, received_at, next_attempt_at, order_key) VALUES ('a-1', 'X', '{}', 1, 1, 'k')`,
      )
      await receiver.insert({ key: 'a-2', eventType: 'X', body: '{}', receivedAt: 1, orderKey: 'k' })
      const claim = (store: WebhookStore, owner: string) =>
        store.claim({ owner, limit: 10, now: 10, leaseMs: 60_000 })
      const first = claim(worker1, 'w1')
      // Worker 1's claim holds a-2 (its trigger sleeps) before a-1 commits.
      await expect
        .poll(
          async () =>
            (
              await admin.query(
                `SELECT 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND strpos(query, $1) > 0`,
                [q],
              )
            ).rowCount,
        )
        .toBe(1)
      await slowReceiver.query('COMMIT')
      const second = await claim(worker2, 'w2')
      const leased = [...(await first), ...second].map((e) => e.key)
      expect(leased).toEqual(['a-2'])
      const { rows } = await admin.query(`SELECT key FROM ${q} WHERE status = 'processing'`)
      expect(rows.map((r) => r.key)).toEqual(['a-2'])
      // Once a-2 is done, a-1 (stored in the same instant, committed later) runs next.
      expect(await worker1.settle('a-2', 'w1', { status: 'done', at: 11 })).toBe(true)
      expect((await claim(worker2, 'w2')).map((e) => e.key)).toEqual(['a-1'])
    } finally {
      slowReceiver.release()
      await Promise.all(stores.map((s) => s.close()))
    }
  })

  it('claims ordered events that appear after claims found none (one per key), and unordered ones beside them', async () => {
    const store = postgresStore(postgres.url, { schema, table: table() })
    const event = (key: string, orderKey: string | null = null) => ({
      key,
      eventType: 'X',
      body: '{}',
      receivedAt: 1,
      orderKey,
    })
    const claim = (now: number) => store.claim({ owner: `w${now}`, limit: 10, now, leaseMs: 60_000 })
    await store.insert(event('u1'))
    expect((await claim(10)).map((e) => e.key)).toEqual(['u1'])
    for (const e of [event('k-0', 'k'), event('k-1', 'k'), event('u2'), event('j-0', 'j')])
      await store.insert(e)
    expect((await claim(20)).map((e) => e.key).sort()).toEqual(['j-0', 'k-0', 'u2'])
    expect(await claim(30)).toEqual([])
    expect(await store.settle('k-0', 'w20', { status: 'done', at: 31 })).toBe(true)
    expect((await claim(40)).map((e) => e.key)).toEqual(['k-1'])
    await store.close()
  })

  it('groups concurrent inserts and de-duplicates a key sent twice in one group', async () => {
    const store = postgresStore(postgres.url, { schema, table: table() })
    const outcomes = await Promise.all(
      ['a', 'b', 'a', 'c', 'b'].map((key) =>
        store.insert({ key, eventType: 'X', body: '{}', receivedAt: 1 }),
      ),
    )
    expect(outcomes).toEqual(['inserted', 'inserted', 'duplicate', 'inserted', 'duplicate'])
    await store.close()
  })

  it('keeps ids and timestamps exact (bigint columns)', async () => {
    const store = postgresStore(postgres.url, { schema, table: table() })
    await store.insert({
      key: 'big',
      eventType: 'X',
      body: '{"id":1951438207513255936}',
      receivedAt: 1_753_946_835_010,
    })
    expect(await store.get('big')).toMatchObject({
      body: '{"id":1951438207513255936}',
      receivedAt: 1_753_946_835_010,
    })
    await store.close()
  })

  it('reports a store failure as a retryable store_unavailable error', async () => {
    const store = postgresStore('postgres://postgres@127.0.0.1:1/none', { schema, table: table() })
    await expect(store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })).rejects.toMatchObject(
      {
        code: 'store_unavailable',
        isRetryable: true,
      },
    )
    await store.close()
  })
})

describe.skipIf(!postgres.available)('two receivers sharing one PostgreSQL inbox', () => {
  it('process every event exactly once between them', async () => {
    const { createWebhookReceiver } = await import('../../receiver/receiver.ts')
    const { generateWebhookToken } = await import('../../intake/token.ts')
    const token = generateWebhookToken()
    const t = table()
    const runs: string[] = []
    const make = () => {
      const receiver = createWebhookReceiver({
        token,
        store: postgresStore(postgres.url, { schema, table: t }),
        processing: { concurrency: 4, pollIntervalMs: 20 },
      })
      receiver.onAny((_event, { key }) => void runs.push(key))
      return receiver
    }
    const [a, b] = [make(), make()]
    const posts = Array.from({ length: 100 }, (_, i) =>
      (i % 2 ? a : b).fetch(
        new Request(`https://h.example.com/webhooks/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"eventId":"e${i % 80}","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[1951438207513255936]}}`,
        }),
      ),
    )
    expect((await Promise.all(posts)).map((r) => r.status)).toEqual(Array(100).fill(200))
    await expect.poll(() => runs.length, { timeout: 20_000 }).toBe(80)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(new Set(runs).size).toBe(80)
    expect(runs).toHaveLength(80)
    await Promise.all([a.close(), b.close()])
  })

  it('keep one key in order between two workers (ingest-only receiver with orderBy, two runWorker)', async () => {
    const { createWebhookReceiver } = await import('../../receiver/receiver.ts')
    const { runWorker } = await import('../../receiver/run-worker.ts')
    const { generateWebhookToken } = await import('../../intake/token.ts')
    const token = generateWebhookToken()
    const t = table()
    const receiver = createWebhookReceiver({
      token,
      store: postgresStore(postgres.url, { schema, table: t }),
      processing: false,
      orderBy: 'materialId',
    })
    const finished: string[] = []
    const running = new Map<string, number>()
    let peak = 0
    let failedOnce = false
    const handler = async (event: WebhookEvent) => {
      const id = String((event as { eventId?: string }).eventId)
      const key = id.split('-')[0]!
      running.set(key, (running.get(key) ?? 0) + 1)
      if (key !== 'free') peak = Math.max(peak, running.get(key)!)
      try {
        await new Promise((resolve) => setTimeout(resolve, 3))
        if (id === 'a-3' && !failedOnce) {
          failedOnce = true
          throw new Error('a-3 fails once')
        }
        finished.push(id)
      } finally {
        running.set(key, running.get(key)! - 1)
      }
    }
    const workers = [1, 2].map(() =>
      runWorker({
        store: postgresStore(postgres.url, { schema, table: t }),
        handlers: { '*': handler },
        processing: { concurrency: 4, pollIntervalMs: 20, retry: { initialDelayMs: 20, maxDelayMs: 20 } },
      }),
    )
    for (let i = 0; i < 10; i++) {
      for (const [key, ids] of [
        ['a', '7'],
        ['b', '8'],
        ['free', '7,8'],
      ] as const) {
        const response = await receiver.fetch(
          new Request(`https://h.example.com/webhooks/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: `{"eventId":"${key}-${i}","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[${ids}]}}`,
          }),
        )
        expect(response.status).toBe(200)
      }
    }
    await expect.poll(() => finished.length, { timeout: 20_000 }).toBe(30)
    expect(failedOnce).toBe(true)
    for (const key of ['a', 'b'])
      expect(finished.filter((id) => id.startsWith(`${key}-`))).toEqual(
        Array.from({ length: 10 }, (_, i) => `${key}-${i}`),
      )
    expect(peak).toBe(1)
    await Promise.all([receiver.close(), ...workers.map((w) => w.close())])
  })
})

describe.skipIf(!postgres.available)('postgresStore through the database faults', () => {
  const terminate = (t: string) =>
    admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1`,
      [t],
    )
  const urlFor = (t: string) =>
    `${postgres.url}${postgres.url.includes('?') ? '&' : '?'}application_name=${t}`

  it('keeps running when the server ends its pooled and listening connections, and recovers', async () => {
    const t = table()
    const store = postgresStore(urlFor(t), { schema, table: t })
    let wakes = 0
    const unsubscribe = await store.subscribe!(() => void wakes++)
    await store.insert({ key: 'before', eventType: 'X', body: '{}', receivedAt: 1 })
    await expect.poll(() => wakes, { timeout: 5_000 }).toBeGreaterThanOrEqual(2)
    // Without an 'error' listener on the pool, this ends the process ("Unhandled 'error' event").
    expect((await terminate(t)).rowCount).toBeGreaterThanOrEqual(2)
    await new Promise((resolve) => setTimeout(resolve, 100))
    await store.insert({ key: 'after', eventType: 'X', body: '{}', receivedAt: 2 }).catch(() => undefined)
    await expect
      .poll(
        async () =>
          (await store.insert({ key: 'after2', eventType: 'X', body: '{}', receivedAt: 3 })) !== undefined,
      )
      .toBe(true)
    const woken = wakes
    // The listener comes back by itself, and is woken by inserts again.
    await expect
      .poll(
        async () => {
          await store.insert({ key: `later-${Date.now()}`, eventType: 'X', body: '{}', receivedAt: 4 })
          return wakes
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThan(woken)
    await unsubscribe()
    await store.close()
  })

  it('listens once the database answers, when a worker subscribed while it did not', async () => {
    const target = new URL(postgres.url)
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    onTestFinished(() => proxy.close())
    const url = new URL(postgres.url)
    url.host = `127.0.0.1:${proxy.port}`
    const store = postgresStore(url.href, { schema, table: table(), connectTimeoutMs: 200 })
    const silent = proxy.holdReplies()
    let wakes = 0
    const unsubscribe = await store.subscribe!(() => void wakes++)
    expect(wakes).toBe(0)
    silent.flush()
    await expect.poll(() => wakes, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    await unsubscribe()
    await store.close()
  })

  it('commits a transactional handler’s writes with the done mark, or not at all', async () => {
    const t = table()
    const store = postgresStore(postgres.url, { schema, table: t })
    await admin.query(`CREATE TABLE "${schema}"."${t}_effects" (key text NOT NULL)`)
    await store.insert({ key: 'ok', eventType: 'X', body: '{}', receivedAt: 1 })
    await store.insert({ key: 'fails', eventType: 'X', body: '{}', receivedAt: 1 })
    const [ok, fails] = await store.claim({ owner: 'w', limit: 2, now: 10, leaseMs: 60_000 })
    const tx2 = await store.begin!(fails!.key, 'w')
    await tx2.query(`INSERT INTO "${schema}"."${t}_effects" VALUES ($1)`, [fails!.key])
    await tx2.rollback()
    const tx = await store.begin!(ok!.key, 'w')
    await tx.query(`INSERT INTO "${schema}"."${t}_effects" VALUES ($1)`, [ok!.key])
    // With both leases expired, another worker can claim only the row no transaction holds.
    const taken = await store.claim({ owner: 'other', limit: 5, now: 120_000, leaseMs: 1 })
    expect(taken.map((e) => e.key)).toEqual(['fails'])
    expect(await tx.commitDone(20)).toBe(true)
    const { rows } = await admin.query(`SELECT key FROM "${schema}"."${t}_effects"`)
    expect(rows.map((r) => r.key)).toEqual(['ok'])
    expect(await store.get('ok')).toMatchObject({ status: 'done', finishedAt: 20 })
    // A lease another worker holds now cannot be taken into a transaction.
    await expect(store.begin!('fails', 'w')).rejects.toMatchObject({ code: 'store_unavailable' })
    await store.close()
  })

  it('wakes an idle worker in another process through NOTIFY (pickup latency)', async () => {
    const { runWorker } = await import('../../receiver/run-worker.ts')
    const t = table()
    const store = postgresStore(postgres.url, { schema, table: t })
    const ran: number[] = []
    // Polling once a minute: only the notification can start these runs quickly.
    const worker = runWorker({
      store: postgresStore(postgres.url, { schema, table: t }),
      processing: { pollIntervalMs: 60_000 },
      handlers: { '*': (_event, { receivedAt }) => void ran.push(Date.now() - receivedAt) },
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (let i = 0; i < 20; i++) {
      await store.insert({
        key: `e${i}`,
        eventType: 'MATERIAL_DELETED',
        body: `{"eventId":"e${i}","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[1]}}`,
        receivedAt: Date.now(),
      })
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(20)
    const sorted = [...ran].sort((a, b) => a - b)
    console.info(`NOTIFY pickup latency: median ${sorted[10]} ms, max ${sorted[19]} ms (poll interval 60 s)`)
    expect(sorted[19]).toBeLessThan(30_000)
    await worker.close()
    await store.close()
  })
})
