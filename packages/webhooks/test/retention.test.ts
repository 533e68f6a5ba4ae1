// The receiver prunes on a schedule, on every store: done events past their age go, dead letters
// and events still to run stay; by default done events older than 7 days, checked at start and
// every hour; `retention: false` never prunes.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import { PRUNE_SLICE } from '../src/receiver/retention.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import type { WebhookStore } from '../src/stores/store.ts'
import { everyStore } from './every-store.ts'
import { captureLogger, manualClock } from './helpers.ts'

const STORES = await everyStore('retention')

const token = generateWebhookToken()
const DAY = 86_400_000

/** Stores `count` events with keys `<prefix>-<i>`, claims them and settles them at `at` as `status`. */
async function finished(
  store: WebhookStore,
  prefix: string,
  count: number,
  at: number,
  status: 'done' | 'dead',
) {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}`)
  await Promise.all(keys.map((key) => store.insert({ key, eventType: 'X', body: '{}', receivedAt: at })))
  for (let claimed = 0; claimed < count; ) {
    const batch = await store.claim({ owner: prefix, limit: 500, now: at, leaseMs: 60_000 })
    await Promise.all(
      batch.map((e) =>
        store.settle(e.key, prefix, status === 'done' ? { status, at } : { status, at, error: 'x' }),
      ),
    )
    claimed += batch.length
  }
}

describe.each(STORES)('%s: retention', (_name, open) => {
  it('by default prunes done events older than 7 days once the receiver starts, keeping dead letters and newer ones', async () => {
    const clock = manualClock()
    const store = open()
    await finished(store, 'old', 3, clock.now() - 8 * DAY, 'done')
    await finished(store, 'recent', 2, clock.now() - 6 * DAY, 'done')
    await finished(store, 'dead', 2, clock.now() - 30 * DAY, 'dead')
    await store.insert({ key: 'waiting', eventType: 'X', body: '{}', receivedAt: clock.now() - 30 * DAY })
    const { logger, lines } = captureLogger()
    const receiver = createWebhookReceiver({ token, store, clock, logger, processing: false })
    try {
      await expect.poll(async () => (await store.counts()).done).toBe(2)
      expect(await store.counts()).toEqual({ pending: 1, processing: 0, done: 2, dead: 2 })
      expect(lines).toContainEqual(expect.stringMatching(/^info webhooks: pruned 3 done event/))
    } finally {
      await receiver.close()
    }
  })

  it('prunes again every everyMs, in slices, dead letters too when asked', async () => {
    const clock = manualClock()
    const store = open()
    const receiver = createWebhookReceiver({
      token,
      store,
      clock,
      processing: false,
      retention: { doneOlderThanMs: 1_000, deadOlderThanMs: 5_000, everyMs: 50 },
    })
    try {
      await finished(store, 'many', PRUNE_SLICE * 2 + 5, clock.now(), 'done')
      await finished(store, 'dead', 2, clock.now(), 'dead')
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect((await store.counts()).done).toBe(PRUNE_SLICE * 2 + 5)
      clock.advance(1_001)
      await expect.poll(async () => (await store.counts()).done, { timeout: 10_000 }).toBe(0)
      expect((await store.counts()).dead).toBe(2)
      clock.advance(5_000)
      await expect.poll(async () => (await store.counts()).dead).toBe(0)
    } finally {
      await receiver.close()
    }
  })

  it('never prunes with retention: false', async () => {
    const clock = manualClock()
    const store = open()
    await finished(store, 'old', 2, clock.now() - 365 * DAY, 'done')
    const receiver = createWebhookReceiver({ token, store, clock, processing: false, retention: false })
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect((await store.counts()).done).toBe(2)
    } finally {
      await receiver.close()
    }
  })
})

describe('the retention schedule in a process of its own', () => {
  it('never keeps the process alive: a receiver left open on an idle store lets it exit', () => {
    const module = join(import.meta.dirname, '../src/index.ts')
    const testing = join(import.meta.dirname, '../src/testing.ts')
    const script = `import { createWebhookReceiver } from ${JSON.stringify(module)}
      import { memoryStoreForTests } from ${JSON.stringify(testing)}
      createWebhookReceiver({ token: false, store: memoryStoreForTests(), processing: false, retention: { everyMs: 100 } })
      setTimeout(() => console.log('still here'), 300)`
    const started = performance.now()
    const run = spawnSync(
      process.execPath,
      ['--conditions=@service-sdk/source', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 20_000 },
    )
    expect(run.stdout.trim()).toBe('still here')
    expect([run.signal, run.status]).toEqual([null, 0])
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})

describe('retention when the store fails', () => {
  it('logs the failure, reports it to onError as store_unavailable, and tries again at the next turn', async () => {
    const store = memoryStoreForTests()
    let calls = 0
    const failing: WebhookStore = {
      ...store,
      async prune(options) {
        calls++
        if (calls === 1) throw new Error('database gone')
        return store.prune(options)
      },
    }
    const { logger, lines } = captureLogger()
    const receiver = createWebhookReceiver({
      token,
      store: failing,
      logger,
      processing: false,
      retention: { everyMs: 30 },
    })
    const errors: string[] = []
    receiver.onError((error) => void errors.push(error.code))
    try {
      await expect.poll(() => calls).toBeGreaterThan(1)
      expect(errors[0]).toBe('store_unavailable')
      expect(lines).toContainEqual(expect.stringMatching(/^warn webhooks: A scheduled prune failed/))
    } finally {
      await receiver.close()
    }
  })
})
