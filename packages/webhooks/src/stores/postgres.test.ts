import { randomBytes } from 'node:crypto'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { storeContract } from '../../test/store-contract.ts'
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

describe.skipIf(!postgres.available)('postgresStore (real PostgreSQL)', () => {
  storeContract('postgresStore from a URL', async () =>
    postgresStore(postgres.url, { schema, table: table() }),
  )
  storeContract('postgresStore on a caller-owned pool', async () =>
    postgresStore(admin, { schema, table: table() }),
  )

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
    const { createWebhookReceiver } = await import('../receiver.ts')
    const { generateWebhookToken } = await import('../token.ts')
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
})
