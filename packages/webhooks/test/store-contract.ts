// The behaviour every WebhookStore must show; run against each store by its own test file.
import { describe, expect, it } from 'vitest'
import type { NewEvent, WebhookStore } from '../src/stores/store.ts'

const T0 = 1_753_946_835_010

function event(key: string, receivedAt = T0): NewEvent {
  return { key, eventType: 'MATERIAL_DELETED', body: `{"eventId":"${key}"}`, receivedAt }
}

export function storeContract(name: string, open: () => Promise<WebhookStore>): void {
  describe(`${name}: the WebhookStore contract`, () => {
    const withStore = (test: (store: WebhookStore) => Promise<void>) => async () => {
      const store = await open()
      try {
        await test(store)
      } finally {
        await store.close()
      }
    }

    it(
      'inserts once per key; a duplicate changes nothing',
      withStore(async (store) => {
        expect(await store.insert(event('a'))).toBe('inserted')
        expect(await store.insert({ ...event('a'), body: 'other' })).toBe('duplicate')
        const stored = await store.get('a')
        expect(stored).toMatchObject({ key: 'a', status: 'pending', attempts: 0, body: '{"eventId":"a"}' })
        expect(await store.get('missing')).toBeUndefined()
      }),
    )

    it(
      'de-duplicates concurrent inserts of the same key (one group)',
      withStore(async (store) => {
        const outcomes = await Promise.all([1, 2, 3, 4].map(() => store.insert(event('same'))))
        expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(1)
        expect((await store.counts()).pending).toBe(1)
      }),
    )

    it(
      'claims due events under a lease, each once, in arrival order',
      withStore(async (store) => {
        for (const key of ['a', 'b', 'c']) await store.insert(event(key))
        const first = await store.claim({ owner: 'w1', limit: 2, now: T0, leaseMs: 1000 })
        expect(first.map((e) => e.key)).toEqual(['a', 'b'])
        expect(first[0]).toMatchObject({ status: 'processing', attempts: 1, leaseUntil: T0 + 1000 })
        const second = await store.claim({ owner: 'w2', limit: 5, now: T0, leaseMs: 1000 })
        expect(second.map((e) => e.key)).toEqual(['c'])
        expect(await store.claim({ owner: 'w3', limit: 5, now: T0, leaseMs: 1000 })).toEqual([])
      }),
    )

    it(
      'does not claim a pending event before it is due',
      withStore(async (store) => {
        await store.insert(event('a'))
        const [claimed] = await store.claim({ owner: 'w1', limit: 1, now: T0, leaseMs: 1000 })
        await store.settle('a', 'w1', { status: 'pending', nextAttemptAt: T0 + 5000, error: 'boom' })
        expect(claimed?.key).toBe('a')
        expect(await store.claim({ owner: 'w2', limit: 1, now: T0 + 4999, leaseMs: 1000 })).toEqual([])
        const [again] = await store.claim({ owner: 'w2', limit: 1, now: T0 + 5000, leaseMs: 1000 })
        expect(again).toMatchObject({ key: 'a', attempts: 2, lastError: 'boom' })
      }),
    )

    it(
      'lets another worker take an event whose lease expired; the first can then neither renew nor settle',
      withStore(async (store) => {
        await store.insert(event('a'))
        await store.claim({ owner: 'crashed', limit: 1, now: T0, leaseMs: 1000 })
        expect(await store.claim({ owner: 'w2', limit: 1, now: T0 + 999, leaseMs: 1000 })).toEqual([])
        const [taken] = await store.claim({ owner: 'w2', limit: 1, now: T0 + 1000, leaseMs: 1000 })
        expect(taken).toMatchObject({ key: 'a', attempts: 2 })
        expect(await store.renew('a', 'crashed', T0 + 9000)).toBe(false)
        expect(await store.settle('a', 'crashed', { status: 'done', at: T0 })).toBe(false)
        expect(await store.renew('a', 'w2', T0 + 9000)).toBe(true)
        expect(await store.settle('a', 'w2', { status: 'done', at: T0 + 10 })).toBe(true)
        expect(await store.get('a')).toMatchObject({ status: 'done', finishedAt: T0 + 10, leaseUntil: null })
      }),
    )

    it(
      'renewing a lease keeps the event from other workers',
      withStore(async (store) => {
        await store.insert(event('a'))
        await store.claim({ owner: 'w1', limit: 1, now: T0, leaseMs: 1000 })
        expect(await store.renew('a', 'w1', T0 + 5000)).toBe(true)
        expect(await store.claim({ owner: 'w2', limit: 1, now: T0 + 4000, leaseMs: 1000 })).toEqual([])
      }),
    )

    it(
      'dead letters keep their last error, are listed by status, and can be re-queued',
      withStore(async (store) => {
        for (const key of ['a', 'b', 'c']) await store.insert(event(key))
        await store.claim({ owner: 'w', limit: 3, now: T0, leaseMs: 1000 })
        await store.settle('a', 'w', { status: 'dead', at: T0 + 1, error: 'TypeError: nope' })
        await store.settle('b', 'w', { status: 'dead', at: T0 + 1, error: 'again' })
        await store.settle('c', 'w', { status: 'done', at: T0 + 1 })
        expect(await store.counts()).toEqual({ pending: 0, processing: 0, done: 1, dead: 2 })
        const dead = await store.list({ status: 'dead' })
        expect(dead.map((e) => [e.key, e.lastError])).toEqual([
          ['a', 'TypeError: nope'],
          ['b', 'again'],
        ])
        expect(await store.requeue({ keys: ['b'], now: T0 + 2 })).toBe(1)
        expect(await store.get('b')).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: T0 + 2 })
        expect(await store.requeue({ now: T0 + 3 })).toBe(1)
        expect((await store.counts()).pending).toBe(2)
        // A done event can be replayed by key.
        expect(await store.requeue({ keys: ['c'], now: T0 + 3 })).toBe(1)
      }),
    )

    it(
      'does not re-queue an event that is being processed',
      withStore(async (store) => {
        await store.insert(event('a'))
        await store.claim({ owner: 'w', limit: 1, now: T0, leaseMs: 1000 })
        expect(await store.requeue({ keys: ['a'], now: T0 })).toBe(0)
      }),
    )

    it(
      'lists in pages, in arrival order',
      withStore(async (store) => {
        for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) await store.insert(event(key))
        const page1 = await store.list({ limit: 2 })
        const page2 = await store.list({ limit: 2, after: page1.at(-1)!.key })
        const page3 = await store.list({ limit: 2, after: page2.at(-1)!.key })
        expect([page1, page2, page3].map((p) => p.map((e) => e.key))).toEqual([
          ['k1', 'k2'],
          ['k3', 'k4'],
          ['k5'],
        ])
      }),
    )

    it(
      'prunes finished events older than a time, done by default',
      withStore(async (store) => {
        for (const key of ['old', 'new', 'dead', 'waiting']) await store.insert(event(key))
        await store.claim({ owner: 'w', limit: 3, now: T0, leaseMs: 1000 })
        await store.settle('old', 'w', { status: 'done', at: T0 + 1 })
        await store.settle('new', 'w', { status: 'done', at: T0 + 100 })
        await store.settle('dead', 'w', { status: 'dead', at: T0 + 1, error: 'x' })
        expect(await store.prune({ before: T0 + 50 })).toBe(1)
        expect(await store.get('old')).toBeUndefined()
        expect(await store.get('new')).toBeDefined()
        expect(await store.prune({ before: T0 + 50, status: 'dead' })).toBe(1)
        expect((await store.counts()).pending).toBe(1)
      }),
    )

    it(
      'keeps bodies byte for byte (ids beyond 2^53, unicode)',
      withStore(async (store) => {
        const body = '{"eventId":"x","payload":{"materialIds":[1951438207513255936]},"name":"héllo ✓ 😀"}'
        await store.insert({ ...event('x'), body })
        expect((await store.get('x'))?.body).toBe(body)
      }),
    )
  })
}
