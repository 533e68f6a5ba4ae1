// Ordering per key, through the real receiver: run against each store by its own test file.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiverOptions } from '../src/receiver/receiver.ts'
import type { WebhookStore } from '../src/stores/store.ts'
import { manualClock, post } from './helpers.ts'

const token = generateWebhookToken()

/** An asset event naming the given assets; its eventId says which it is. */
const deleted = (id: string, materialIds: Array<string | number>) =>
  `{"eventId":"${id}","eventType":"MATERIAL_DELETED","eventTime":"1753946835010","payload":{"materialIds":[${materialIds.join(',')}],"deleteAction":"RECYCLE"}}`

interface Run {
  id: string
  attempt: number
}

export function orderingContract(name: string, open: () => Promise<WebhookStore>): void {
  describe(`${name}: ordering per key through the receiver`, () => {
    async function setup(options: Partial<WebhookReceiverOptions> = {}, ordered = true) {
      const store = await open()
      const clock = manualClock()
      const receiver = createWebhookReceiver({
        token,
        store,
        clock,
        ...(ordered ? { orderBy: 'materialId' as const } : {}),
        ...options,
        processing: { autoStart: false, concurrency: 8, ...options.processing },
      })
      // Which runs started, in order; how many ran at once, per key and in all.
      const started: Run[] = []
      const finished: Run[] = []
      const running = new Map<string, number>()
      let now = 0
      // The most runs at once: of each key (by eventId prefix), and in all.
      const peak = new Map<string, number>()
      let fail = (_run: Run): boolean => false
      receiver.onAny(async (event, context) => {
        const id = (event as { eventId: string }).eventId
        const key = id.split('-')[0]!
        const run = { id, attempt: context.attempt }
        started.push(run)
        running.set(key, (running.get(key) ?? 0) + 1)
        now++
        peak.set(key, Math.max(peak.get(key) ?? 0, running.get(key)!))
        peak.set('*', Math.max(peak.get('*') ?? 0, now))
        try {
          await sleep(5)
          if (fail(run)) throw new Error(`${id} failed`)
          finished.push(run)
        } finally {
          running.set(key, running.get(key)! - 1)
          now--
        }
      })
      const send = async (bodies: string[]) => {
        for (const body of bodies) expect((await post(receiver, token, body)).status).toBe(200)
      }
      return {
        receiver,
        clock,
        started,
        finished,
        peak,
        send,
        failWhen: (f: (run: Run) => boolean) => {
          fail = f
        },
      }
    }

    it('runs the events of one key one at a time in arrival order (concurrency 8, a failure retried); other keys and keyless events go on', async () => {
      const t = await setup({ processing: { retry: { initialDelayMs: 1000, maxDelayMs: 1000 } } })
      try {
        // Three assets, five events each, interleaved; five events naming two assets (no key).
        const bodies: string[] = []
        for (let i = 0; i < 5; i++) {
          bodies.push(
            deleted(`a-${i}`, ['1951438207513255936']),
            deleted(`b-${i}`, [2]),
            deleted(`c-${i}`, [3]),
          )
          bodies.push(deleted(`free-${i}`, [4, 5]))
        }
        await t.send(bodies)
        t.failWhen((run) => run.id === 'a-1' && run.attempt === 1)
        await t.receiver.drain()
        // a-1 waits for its retry: a-2.. wait behind it; b, c and the keyless ones all ran.
        const first = t.finished.map((r) => r.id)
        expect(first.filter((id) => id.startsWith('a-'))).toEqual(['a-0'])
        for (const key of ['b', 'c', 'free'])
          expect(first.filter((id) => id.startsWith(`${key}-`))).toHaveLength(5)
        expect((await t.receiver.events.counts()).pending).toBe(4)
        t.clock.advance(1000)
        await t.receiver.drain()
        const done = t.finished.map((r) => r.id)
        for (const key of ['a', 'b', 'c']) {
          expect(done.filter((id) => id.startsWith(`${key}-`))).toEqual(
            [0, 1, 2, 3, 4].map((i) => `${key}-${i}`),
          )
        }
        // Started in order too (the failed attempt of a-1 then its retry, before a-2).
        expect(t.started.filter((r) => r.id.startsWith('a-')).map((r) => `${r.id}#${r.attempt}`)).toEqual([
          'a-0#1',
          'a-1#1',
          'a-1#2',
          'a-2#1',
          'a-3#1',
          'a-4#1',
        ])
        expect([t.peak.get('a'), t.peak.get('b'), t.peak.get('c')]).toEqual([1, 1, 1])
        // Different keys, and the keyless events, ran side by side.
        expect(t.peak.get('*')).toBeGreaterThan(3)
        expect(t.peak.get('free')).toBeGreaterThan(1)
        expect(await t.receiver.events.counts()).toMatchObject({ done: 20, pending: 0, processing: 0 })
        expect((await t.receiver.events.get('a-0'))?.orderKey).toBe('materialId:1951438207513255936')
        expect((await t.receiver.events.get('free-0'))?.orderKey).toBeNull()
      } finally {
        await t.receiver.close()
      }
    })

    it('lets a dead event release its key: the next events of the key run', async () => {
      const t = await setup({
        processing: { retry: { maxRetries: 1, initialDelayMs: 1000, maxDelayMs: 1000 } },
      })
      try {
        await t.send([0, 1, 2].map((i) => deleted(`a-${i}`, [7])))
        t.failWhen((run) => run.id === 'a-0')
        await t.receiver.drain()
        expect(t.finished).toEqual([])
        t.clock.advance(1000)
        await t.receiver.drain()
        expect((await t.receiver.events.get('a-0'))?.status).toBe('dead')
        expect(t.finished.map((r) => r.id)).toEqual(['a-1', 'a-2'])
      } finally {
        await t.receiver.close()
      }
    })

    it('puts a re-queued dead letter back in its place: later events of its key not run yet wait for it', async () => {
      const store = await open()
      const event = (key: string) => ({ key, eventType: 'X', body: '{}', receivedAt: 1, orderKey: 'k' })
      try {
        for (const key of ['a', 'b', 'c']) await store.insert(event(key))
        const claim = async (now: number) =>
          (await store.claim({ owner: 'w', limit: 10, now, leaseMs: 1000 })).map((e) => e.key)
        expect(await claim(10)).toEqual(['a'])
        await store.settle('a', 'w', { status: 'dead', at: 11, error: 'x' })
        expect(await claim(11)).toEqual(['b'])
        expect(await store.requeue({ keys: ['a'], now: 12 })).toBe(1)
        await store.settle('b', 'w', { status: 'done', at: 13 })
        // c was stored after a: a runs first again, then c.
        expect(await claim(13)).toEqual(['a'])
        await store.settle('a', 'w', { status: 'done', at: 14 })
        expect(await claim(14)).toEqual(['c'])
      } finally {
        await store.close()
      }
    })

    it('without orderBy, events naming the same asset run side by side (what orderBy prevents)', async () => {
      const t = await setup({}, false)
      try {
        await t.send([0, 1, 2, 3].map((i) => deleted(`a-${i}`, [7])))
        await t.receiver.drain()
        expect(t.peak.get('a')).toBeGreaterThan(1)
        expect((await t.receiver.events.get('a-0'))?.orderKey).toBeNull()
      } finally {
        await t.receiver.close()
      }
    })
  })
}
