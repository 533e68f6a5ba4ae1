// Every public option of the receiver, the stores, runWorker, and what events.prune / requeue /
// list and the stores' own methods are asked: a value that cannot be meant (NaN, a negative
// count, a fraction of a count, out of range, the wrong type) is a ServiceValidationError that
// names the option and says what is wrong with it, before anything is opened or sent. The
// PostgreSQL store here points at a port nothing listens on: any I/O would be store_unavailable.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiverOptions } from '../src/receiver/receiver.ts'
import { runWorker } from '../src/receiver/run-worker.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import type { WebhookStore } from '../src/stores/store.ts'

const token = generateWebhookToken()
const NOWHERE = 'postgres://postgres@127.0.0.1:1/none'
const dir = mkdtempSync(join(tmpdir(), 'webhooks-options-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the error must say: the option's path, and a message matching `says`. */
function refused(path: string, says: RegExp) {
  return expect.objectContaining({
    code: 'validation_error',
    issues: expect.arrayContaining([{ path, message: expect.stringMatching(says) }]),
  })
}

describe('createWebhookReceiver options', () => {
  const cases: Array<[string, Partial<WebhookReceiverOptions>, string, RegExp]> = [
    ['maxBodyBytes NaN', { maxBodyBytes: Number.NaN }, 'maxBodyBytes', /got NaN/],
    ['maxBodyBytes negative', { maxBodyBytes: -1 }, 'maxBodyBytes', /at least 1, got -1/],
    ['maxBodyBytes a fraction', { maxBodyBytes: 1.5 }, 'maxBodyBytes', /integer, got 1.5/],
    ['maxBodyBytes past 2 GiB', { maxBodyBytes: 2 ** 40 }, 'maxBodyBytes', /at most 2147483647/],
    ['maxBodyBytes a string', { maxBodyBytes: '5' as never }, 'maxBodyBytes', /got the string "5"/],
    ['strict not a boolean', { strict: 'yes' as never }, 'strict', /true or false/],
    ['store not a store', { store: {} as never }, 'store', /must be a store/],
    ['concurrency NaN', { processing: { concurrency: Number.NaN } }, 'concurrency', /got NaN/],
    ['concurrency 0', { processing: { concurrency: 0 } }, 'concurrency', /at least 1, got 0/],
    ['concurrency a fraction', { processing: { concurrency: 2.5 } }, 'concurrency', /integer, got 2.5/],
    ['concurrency out of range', { processing: { concurrency: 1e9 } }, 'concurrency', /at most 10000/],
    ['leaseMs past a timer', { processing: { leaseMs: 2 ** 32 } }, 'leaseMs', /at most 2147483647/],
    [
      'pollIntervalMs Infinity',
      { processing: { pollIntervalMs: Number.POSITIVE_INFINITY } },
      'pollIntervalMs',
      /finite/,
    ],
    [
      'maxRetries negative',
      { processing: { retry: { maxRetries: -1 } } },
      'retry.maxRetries',
      /not negative/,
    ],
    ['maxRetries NaN', { processing: { retry: { maxRetries: Number.NaN } } }, 'retry.maxRetries', /got NaN/],
    [
      'initialDelayMs NaN',
      { processing: { retry: { initialDelayMs: Number.NaN } } },
      'retry.initialDelayMs',
      /NaN/,
    ],
    [
      'autoStart not a boolean',
      { processing: { autoStart: 'no' as never } },
      'processing.autoStart',
      /true or false/,
    ],
    ['retention age NaN', { retention: { doneOlderThanMs: Number.NaN } }, 'retention.doneOlderThanMs', /NaN/],
    [
      'retention age negative',
      { retention: { deadOlderThanMs: -5 } },
      'retention.deadOlderThanMs',
      /not negative/,
    ],
    ['retention every 0', { retention: { everyMs: 0 } }, 'retention.everyMs', /at least 1, got 0/],
    ['retention not an object', { retention: 7 as never }, 'retention', /object, got 7/],
  ]
  it.each(cases)('%s', (_name, options, path, says) => {
    expect(() => createWebhookReceiver({ token, store: memoryStoreForTests(), ...options })).toThrow(
      refused(path, says),
    )
  })
})

describe('runWorker options', () => {
  it.each([
    ['no store', { store: undefined as never }, 'store', /required/],
    [
      'a handler that is not a function',
      { handlers: { MATERIAL_DELETED: 'x' as never } },
      'handlers.MATERIAL_DELETED',
      /function/,
    ],
    ['secrets not strings', { secrets: [1] as never }, 'secrets[0]', /string, got 1/],
    ['concurrency NaN', { processing: { concurrency: Number.NaN } }, 'concurrency', /NaN/],
  ] as const)('%s', (_name, options, path, says) => {
    expect(() => runWorker({ store: memoryStoreForTests(), ...options })).toThrow(refused(path, says))
  })
})

describe('store options', () => {
  it.each([
    ['busyTimeoutMs NaN', { busyTimeoutMs: Number.NaN }, 'busyTimeoutMs', /NaN/],
    ['busyTimeoutMs negative', { busyTimeoutMs: -1 }, 'busyTimeoutMs', /not negative/],
    ['thread unknown', { thread: 'other' as never }, 'thread', /"worker" or "main"/],
  ] as const)('sqliteStore: %s', (_name, options, path, says) => {
    expect(() => sqliteStore(join(dir, 'x.db'), options)).toThrow(refused(path, says))
  })

  it.each([
    ['max NaN', { max: Number.NaN }, 'max', /NaN/],
    ['max a fraction', { max: 1.5 }, 'max', /integer/],
    ['insertsInFlight 0', { insertsInFlight: 0 }, 'insertsInFlight', /at least 1/],
    ['statementTimeoutMs NaN', { statementTimeoutMs: Number.NaN }, 'statementTimeoutMs', /NaN/],
    ['connectTimeoutMs past a timer', { connectTimeoutMs: 2 ** 31 }, 'connectTimeoutMs', /at most/],
  ] as const)('postgresStore: %s', (_name, options, path, says) => {
    expect(() => postgresStore(NOWHERE, options)).toThrow(refused(path, says))
  })

  it('postgresStore: neither a URL nor a pool', () => {
    expect(() => postgresStore(42 as never)).toThrow(refused('poolOrUrl', /connection string or a pg.Pool/))
  })
})

const STORES: Array<[string, () => WebhookStore]> = [
  ['memoryStoreForTests', () => memoryStoreForTests()],
  ['sqliteStore', () => sqliteStore(join(dir, `s-${Math.random()}.db`))],
  [
    'postgresStore (nothing listening: any I/O would fail as store_unavailable)',
    () => postgresStore(NOWHERE),
  ],
]

describe.each(STORES)('%s: what its methods are asked', (_name, open) => {
  it('events.prune, requeue and list refuse what cannot be meant, before any I/O', async () => {
    const store = open()
    const receiver = createWebhookReceiver({ token, store, processing: false, retention: false })
    try {
      const { events } = receiver
      await expect(events.prune({ olderThanMs: Number.NaN })).rejects.toEqual(
        refused('olderThanMs', /got NaN/),
      )
      await expect(events.prune({ olderThanMs: -1 })).rejects.toEqual(refused('olderThanMs', /not negative/))
      await expect(events.prune({} as never)).rejects.toEqual(refused('olderThanMs', /required/))
      await expect(events.prune({ olderThanMs: 1, status: 'pending' as never })).rejects.toEqual(
        refused('status', /"done" or "dead"/),
      )
      await expect(events.requeue('abc' as never)).rejects.toEqual(refused('keys', /array of strings/))
      await expect(events.requeue([1] as never)).rejects.toEqual(refused('keys[0]', /string, got 1/))
      await expect(events.list({ limit: Number.NaN })).rejects.toEqual(refused('limit', /NaN/))
      await expect(events.list({ limit: 0 })).rejects.toEqual(refused('limit', /at least 1/))
      await expect(events.list({ status: 'gone' as never })).rejects.toEqual(
        refused('status', /got the string/),
      )
    } finally {
      await receiver.close()
    }
  })

  it('the store itself refuses a NaN time or a bad count the same way', async () => {
    const store = open()
    try {
      await expect(store.prune({ before: Number.NaN })).rejects.toEqual(refused('before', /NaN/))
      await expect(store.prune({ before: 1, limit: -1 })).rejects.toEqual(refused('limit', /at least 1/))
      await expect(store.requeue({ now: Number.NaN })).rejects.toEqual(refused('now', /NaN/))
      await expect(store.list({ limit: 1.5 })).rejects.toEqual(refused('limit', /integer/))
      await expect(store.list({ limit: 10_001 })).rejects.toEqual(refused('limit', /at most 10000/))
    } finally {
      await store.close()
    }
  })
})
