// Every store, the same hostile keys: what a JSON body can hold in an eventId, an eventType or an
// order key (NUL, lone surrogates, U+FFFD, ids of thousands of bytes) is stored exactly, never
// merged with another event's key, and never fails the events stored in the same batch. Through the
// store API, then over HTTP against a real receiver on each store.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { webhooksNode } from '../src/adapters/node.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import type { NewEvent } from '../src/stores/store.ts'
import { everyStore } from './every-store.ts'

const STORES = await everyStore('hostile', { mainThread: true })

/** Text that does not compress (PostgreSQL compresses long index entries): hex of a hash chain. */
function incompressible(bytes: number, seed: string): string {
  let text = ''
  for (let i = 0; text.length < bytes; i++) text += createHash('sha256').update(`${seed}${i}`).digest('hex')
  return text.slice(0, bytes)
}
const LONG = incompressible(3_200, 'id')
const LONG_ORDER = incompressible(3_100, 'order')

/** eventIds that differ only where a database could lose the difference. */
const HOSTILE_IDS = [
  'evt-nul-\u0000-a',
  'evt-nul-\u0000-b',
  'evt-lone-\uD800',
  'evt-lone-\uDBFF',
  'evt-lone-\uDC00',
  'evt-lone-\uFFFD',
  'evt-pair-\uD83D\uDE00',
  'evt-lone-high-then-low-\uDE00\uD83D',
  `${LONG}-a`,
  `${LONG}-b`,
  `${LONG}-\u0000`,
  'evt-quotes-"\'\\-\n-\t',
  // What a store might use for a key it cannot hold as text: still a key of its own.
  `~sha256:${'0'.repeat(64)}`,
  `sha256:${'0'.repeat(64)}`,
]
const HOSTILE_TYPES = ['TYPE\u0000NUL', 'TYPE\uD800', 'TYPE\uDC00', 'TYPE\uFFFD', `TYPE-${LONG}`]
const HOSTILE_ORDER = ['o\u0000', 'o\uD800', 'o\uDC00', 'o\uFFFD', `${LONG_ORDER}-a`, `${LONG_ORDER}-b`]

const T0 = 1_753_946_835_010

function hostileEvents(): NewEvent[] {
  return HOSTILE_IDS.map((key, i) => ({
    key,
    eventType: HOSTILE_TYPES[i % HOSTILE_TYPES.length]!,
    // Through the store API a body is any string, even one no HTTP body decodes to.
    body: i === 0 ? '{"raw":"\u0000"}' : i === 2 ? '{"lone":"\uD800"}' : JSON.stringify({ eventId: key, i }),
    receivedAt: T0 + i,
    orderKey: i < HOSTILE_ORDER.length ? HOSTILE_ORDER[i]! : null,
  }))
}

function normalEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `evt-normal-${i}`,
    eventType: 'MATERIAL_DELETED',
    body: `{"eventId":"evt-normal-${i}"}`,
    receivedAt: T0,
  }))
}

const view = (e: { key: string; eventType: string; body: string; orderKey?: string | null }) => ({
  key: e.key,
  eventType: e.eventType,
  body: e.body,
  orderKey: e.orderKey ?? null,
})

describe.each(STORES)('%s: hostile keys through the store API', (_name, open) => {
  it('stores every hostile key apart and exactly, and one bad row never fails its batch', async () => {
    const store = open()
    try {
      const hostile = hostileEvents()
      const normal = normalEvents(40)
      // One batch: hostile rows interleaved with normal ones.
      const all = normal.flatMap((e, i) => (i < hostile.length ? [e, hostile[i]!] : [e]))
      const outcomes = await Promise.all(all.map((e) => store.insert(e)))
      expect(outcomes).toEqual(all.map(() => 'inserted'))
      expect(await Promise.all(all.map((e) => store.insert({ ...e, body: '{}' })))).toEqual(
        all.map(() => 'duplicate'),
      )
      for (const e of hostile) expect(view((await store.get(e.key))!)).toEqual(view(e))
      const listed = await store.list({ limit: 1000 })
      expect(listed.map(view).sort(byKey)).toEqual(all.map(view).sort(byKey))
      expect((await store.counts()).pending).toBe(all.length)
    } finally {
      await store.close()
    }
  })

  it('claims, renews, settles, lists after and re-queues by each hostile key', async () => {
    const store = open()
    try {
      const hostile = hostileEvents()
      for (const e of hostile) await store.insert(e)
      // Order keys that differ only in a lone surrogate are different keys: all heads are due.
      const claimed = await store.claim({ owner: 'w\u0000\uD800', limit: 100, now: T0 + 100, leaseMs: 1000 })
      expect(claimed.map(view).sort(byKey)).toEqual(hostile.map(view).sort(byKey))
      for (const e of hostile) {
        expect(await store.renew(e.key, 'w\u0000\uD800', T0 + 5000)).toBe(true)
        expect(await store.renew(e.key, 'w\u0000\uDC00', T0 + 5000)).toBe(false)
      }
      const [first, second, ...rest] = hostile
      expect(
        await store.settle(first!.key, 'w\u0000\uD800', {
          status: 'dead',
          at: T0,
          error: 'bad \u0000 \uD800',
        }),
      ).toBe(true)
      expect(
        await store.settle(second!.key, 'w\u0000\uD800', {
          status: 'pending',
          nextAttemptAt: T0,
          error: 'x',
        }),
      ).toBe(true)
      for (const e of rest)
        expect(await store.settle(e.key, 'w\u0000\uD800', { status: 'done', at: T0 })).toBe(true)
      expect(await store.get(first!.key)).toMatchObject({
        status: 'dead',
        lastError: expect.stringMatching(/^bad /),
      })
      const page = await store.list({ after: hostile[5]!.key, limit: 1000 })
      expect(page.map((e) => e.key)).toEqual(hostile.slice(6).map((e) => e.key))
      expect(await store.requeue({ keys: hostile.map((e) => e.key), now: T0 })).toBe(hostile.length)
      expect((await store.counts()).pending).toBe(hostile.length)
    } finally {
      await store.close()
    }
  })

  it('keeps events of one long order key in turn, and of two that differ at the end apart', async () => {
    const store = open()
    try {
      const lane = (key: string, orderKey: string, i: number): NewEvent => ({
        key,
        eventType: 'X',
        body: '{}',
        receivedAt: T0 + i,
        orderKey,
      })
      await store.insert(lane('a1', `${LONG_ORDER}-a`, 1))
      await store.insert(lane('a2', `${LONG_ORDER}-a`, 2))
      await store.insert(lane('b1', `${LONG_ORDER}-b`, 3))
      await store.insert(lane('n1', 'k\u0000', 4))
      await store.insert(lane('n2', 'k\u0000', 5))
      const first = await store.claim({ owner: 'w', limit: 10, now: T0 + 10, leaseMs: 1000 })
      expect(first.map((e) => e.key).sort()).toEqual(['a1', 'b1', 'n1'])
      expect(await store.claim({ owner: 'w', limit: 10, now: T0 + 10, leaseMs: 1000 })).toEqual([])
      await store.settle('a1', 'w', { status: 'done', at: T0 })
      await store.settle('n1', 'w', { status: 'done', at: T0 })
      const next = await store.claim({ owner: 'w', limit: 10, now: T0 + 10, leaseMs: 1000 })
      expect(next.map((e) => [e.key, e.orderKey])).toEqual(
        expect.arrayContaining([
          ['a2', `${LONG_ORDER}-a`],
          ['n2', 'k\u0000'],
        ]),
      )
    } finally {
      await store.close()
    }
  })
})

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

describe.each(STORES)('%s: hostile keys over HTTP, against a real receiver', (_name, open) => {
  it('acknowledges and runs each delivery once, hostile or not, whatever else its batch holds', async () => {
    const token = generateWebhookToken()
    const store = open()
    const receiver = createWebhookReceiver({
      token,
      store,
      orderBy: (event) => (event as { lane?: string }).lane,
      processing: { autoStart: false },
    })
    const ran: string[] = []
    receiver.onAny((_event, { key }) => void ran.push(key))
    const server: Server = createServer(webhooksNode(receiver)).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/${token}`
    try {
      const hostile = HOSTILE_IDS.map((eventId, i) =>
        JSON.stringify({
          eventId,
          eventType: HOSTILE_TYPES[i % HOSTILE_TYPES.length],
          ...(i < HOSTILE_ORDER.length ? { lane: HOSTILE_ORDER[i] } : {}),
        }),
      )
      const normal = Array.from({ length: 150 }, (_, i) => `{"eventId":"evt-normal-${i}","eventType":"X"}`)
      const bodies = normal.flatMap((b, i) => (i < hostile.length ? [b, hostile[i]!] : [b]))
      const send = (body: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          async (r) => [r.status, await r.json()] as const,
        )
      const first = await Promise.all(bodies.map(send))
      expect(first).toEqual(bodies.map(() => [200, { received: true }]))
      const again = await Promise.all(bodies.map(send))
      expect(again).toEqual(bodies.map(() => [200, { received: true, duplicate: true }]))
      await receiver.drain()
      const expected = [...HOSTILE_IDS, ...normal.map((_, i) => `evt-normal-${i}`)]
      expect([...ran].sort()).toEqual([...expected].sort())
      for (const [i, eventId] of HOSTILE_IDS.entries()) {
        const stored = await store.get(eventId)
        expect(stored).toMatchObject({
          key: eventId,
          eventType: HOSTILE_TYPES[i % HOSTILE_TYPES.length],
          body: hostile[i],
          status: 'done',
          orderKey: i < HOSTILE_ORDER.length ? HOSTILE_ORDER[i] : null,
        })
      }
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await receiver.close()
    }
  })
})
