// Pages of the inbox (`store.page`), the oldest pending event and requeue by status, held to one
// rule on every store: what the console and `service-sdk inbox` list and act on.
import { describe, expect, it } from 'vitest'
import type { EventPage, NewEvent, PageQuery, WebhookStore } from '../src/stores/store.ts'
import { PAGE_SCAN_BUDGET } from '../src/stores/store-checks.ts'
import { everyStore } from './every-store.ts'

const T0 = 1_753_946_835_010

const event = (n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
  key: `k${n}`,
  eventType: n % 3 === 0 ? 'MATERIAL_DELETED' : 'MATERIAL_ADDED_TO_FOLDER',
  body: `{"eventId":"k${n}","n":${n}}`,
  receivedAt: T0 + n * 1000,
  orderKey: n % 4 === 0 ? 'folder-4' : null,
  ...extra,
})

/** Every page of a query, following `next`. */
async function allPages(store: WebhookStore, query: PageQuery): Promise<EventPage[]> {
  const pages: EventPage[] = []
  let cursor: string | undefined
  do {
    const page = await store.page!({ ...query, ...(cursor === undefined ? {} : { cursor }) })
    pages.push(page)
    cursor = page.next
  } while (cursor !== undefined && pages.length < 1000)
  return pages
}

const keysOf = (pages: EventPage[]) => pages.flatMap((p) => p.events.map((e) => e.key))

/** Inserts `count` events, one after another (arrival order = n). */
async function fill(store: WebhookStore, count: number, extra?: (n: number) => Partial<NewEvent>) {
  for (let n = 1; n <= count; n++) await store.insert(event(n, extra?.(n)))
}

for (const [name, open] of await everyStore('pages')) {
  describe(`${name}: pages of the inbox`, () => {
    const withStore = (test: (store: WebhookStore) => Promise<void>) => async () => {
      const store = open()
      try {
        await test(store)
      } finally {
        await store.close()
      }
    }

    it(
      'walks every event once, newest or oldest first, page by page, and by status',
      withStore(async (store) => {
        await fill(store, 23)
        // Three dead letters, two done, the rest pending.
        const claimed = await store.claim({ owner: 'w', limit: 5, now: T0 + 60_000, leaseMs: 1000 })
        expect(claimed.map((e) => e.key)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5'])
        for (const key of ['k1', 'k3', 'k5'])
          await store.settle(key, 'w', { status: 'dead', at: T0, error: 'boom' })
        for (const key of ['k2', 'k4']) await store.settle(key, 'w', { status: 'done', at: T0 })

        const newest = await allPages(store, { limit: 5 })
        expect(keysOf(newest)).toEqual(Array.from({ length: 23 }, (_, i) => `k${23 - i}`))
        expect(newest.map((p) => p.events.length)).toEqual([5, 5, 5, 5, 3])
        expect(newest.every((p) => !p.partial)).toBe(true)
        const oldest = await allPages(store, { limit: 10, order: 'oldest' })
        expect(keysOf(oldest)).toEqual(Array.from({ length: 23 }, (_, i) => `k${i + 1}`))
        expect(keysOf(await allPages(store, { status: 'dead', limit: 2 }))).toEqual(['k5', 'k3', 'k1'])
        expect(keysOf(await allPages(store, { status: 'done', order: 'oldest' }))).toEqual(['k2', 'k4'])
        expect(keysOf(await allPages(store, { status: 'pending', limit: 7 }))).toHaveLength(18)
        expect(await store.page!({ status: 'processing' })).toEqual({ events: [], partial: false })
        const [first] = (await store.page!({ status: 'dead', limit: 1 })).events
        expect(first).toMatchObject({ key: 'k5', status: 'dead', lastError: 'boom', attempts: 1 })
      }),
    )

    it(
      'keeps its place when the event at the cursor is pruned between two pages',
      withStore(async (store) => {
        await fill(store, 6)
        await store.claim({ owner: 'w', limit: 6, now: T0 + 60_000, leaseMs: 1000 })
        for (let n = 1; n <= 6; n++) await store.settle(`k${n}`, 'w', { status: 'done', at: T0 + n })
        const first = await store.page!({ order: 'oldest', limit: 3 })
        expect(first.events.map((e) => e.key)).toEqual(['k1', 'k2', 'k3'])
        expect(await store.prune({ before: T0 + 4 })).toBe(3)
        const second = await store.page!({ order: 'oldest', limit: 3, cursor: first.next! })
        expect(second.events.map((e) => e.key)).toEqual(['k4', 'k5', 'k6'])
      }),
    )

    it(
      'filters by event type and order key, a hostile order key included',
      withStore(async (store) => {
        const hostile = `folder\u0000${'x'.repeat(3000)}\ud800`
        await fill(store, 12, (n) => (n === 7 ? { orderKey: hostile } : {}))
        const deleted = keysOf(await allPages(store, { eventType: 'MATERIAL_DELETED', limit: 2 }))
        expect(deleted).toEqual(['k12', 'k9', 'k6', 'k3'])
        expect(keysOf(await allPages(store, { orderKey: 'folder-4', order: 'oldest' }))).toEqual([
          'k4',
          'k8',
          'k12',
        ])
        const both = await store.page!({ orderKey: 'folder-4', eventType: 'MATERIAL_DELETED' })
        expect(both.events.map((e) => e.key)).toEqual(['k12'])
        const [found] = (await store.page!({ orderKey: hostile })).events
        expect(found).toMatchObject({ key: 'k7', orderKey: hostile })
        expect((await store.page!({ eventType: 'NOTHING_LIKE_IT' })).events).toEqual([])
      }),
    )

    it(
      'starts at a time: newest first at or before it, oldest first at or after it',
      withStore(async (store) => {
        await fill(store, 10)
        const at = T0 + 4 * 1000 // k4's time
        const before = await store.page!({ from: at, limit: 3 })
        expect(before.events.map((e) => e.key)).toEqual(['k4', 'k3', 'k2'])
        expect(keysOf(await allPages(store, { from: at, order: 'oldest', limit: 4 }))).toEqual([
          'k4',
          'k5',
          'k6',
          'k7',
          'k8',
          'k9',
          'k10',
        ])
        expect((await store.page!({ from: at + 500 })).events[0]?.key).toBe('k4')
        expect((await store.page!({ from: T0 - 1 })).events).toEqual([])
        expect((await store.page!({ from: T0 + 99_000, order: 'oldest' })).events).toEqual([])
        expect((await store.page!({ from: T0 + 99_000 })).events[0]?.key).toBe('k10')
      }),
    )

    it(
      'answers the oldest pending event, and requeues by status only what is in it',
      withStore(async (store) => {
        expect(await store.oldestPending!()).toBeNull()
        await fill(store, 4)
        expect(await store.oldestPending!()).toBe(T0 + 1000)
        await store.claim({ owner: 'w', limit: 2, now: T0 + 60_000, leaseMs: 1000 })
        await store.settle('k1', 'w', { status: 'done', at: T0 })
        await store.settle('k2', 'w', { status: 'dead', at: T0, error: 'x' })
        expect(await store.oldestPending!()).toBe(T0 + 3000)
        // A replay asks for done events only: the dead one and the pending ones stay as they are.
        expect(await store.requeue({ keys: ['k1', 'k2', 'k3'], now: T0, status: 'done' })).toBe(1)
        expect(await store.get('k1')).toMatchObject({ status: 'pending', attempts: 0, finishedAt: null })
        expect(await store.get('k2')).toMatchObject({ status: 'dead' })
        expect(await store.requeue({ keys: ['k1', 'k2'], now: T0, status: 'dead' })).toBe(1)
        expect(await store.oldestPending!()).toBe(T0 + 1000)
      }),
    )

    it(
      `reads at most ${PAGE_SCAN_BUDGET} events for a filtered page, and says where to go on`,
      withStore(async (store) => {
        const total = PAGE_SCAN_BUDGET + 50
        const rare = new Set([3, 10, PAGE_SCAN_BUDGET + 20])
        const events = Array.from({ length: total }, (_, i) =>
          event(i + 1, { eventType: rare.has(i + 1) ? 'RARE' : 'COMMON', orderKey: null }),
        )
        // The first hundred one by one (their order is the test's), the rest in concurrent groups.
        for (const e of events.slice(0, 100)) await store.insert(e)
        for (let i = 100; i < total; i += 2000)
          await Promise.all(events.slice(i, i + 2000).map((e) => store.insert(e)))
        const first = await store.page!({ eventType: 'RARE', limit: 10 })
        expect(first.events.map((e) => e.key)).toEqual([`k${PAGE_SCAN_BUDGET + 20}`])
        expect(first).toMatchObject({ partial: true, next: expect.any(String) })
        const second = await store.page!({ eventType: 'RARE', limit: 10, cursor: first.next! })
        expect(second.events.map((e) => e.key)).toEqual(['k10', 'k3'])
        expect(second.partial).toBe(false)
        expect(second.next).toBeUndefined()
      }),
      120_000,
    )

    it(
      'refuses a query it cannot understand before any I/O',
      withStore(async (store) => {
        for (const bad of [
          { limit: 0 },
          { limit: 1001 },
          { order: 'sideways' },
          { cursor: 'abc' },
          { cursor: '-1' },
          { from: Number.NaN },
          { status: 'stuck' },
          { eventType: 42 },
        ])
          await expect(store.page!(bad as never)).rejects.toMatchObject({ code: 'validation_error' })
        await expect(store.requeue({ now: T0, status: 'dead' })).rejects.toMatchObject({
          code: 'validation_error',
        })
      }),
    )
  })
}
