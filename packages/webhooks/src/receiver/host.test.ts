import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import * as S from '../../test/samples.ts'
import { memoryStoreForTests } from '../stores/memory.ts'
import { type HostInit, redactedLogging, startHost } from './host.ts'

function init(
  overrides: Partial<HostInit> = {},
): HostInit & { store: ReturnType<typeof memoryStoreForTests> } {
  return {
    store: memoryStoreForTests(),
    ...redactedLogging([], undefined),
    clock: undefined,
    processing: {},
    autoStart: true,
    strict: false,
    keepAlive: false,
    instrumentation: undefined,
    metrics: undefined,
    ...overrides,
  } as HostInit & { store: ReturnType<typeof memoryStoreForTests> }
}

/** Stores one event and lets two turns of the event loop pass (the start, then its first claim). */
async function storeAndWait(store: ReturnType<typeof memoryStoreForTests>): Promise<void> {
  await store.insert({ key: 'evt_1', eventType: 'MATERIAL_DELETED', body: S.deletedRecycle, receivedAt: 1 })
  for (let turn = 0; turn < 5; turn++) await nextTurn()
}

describe('startHost', () => {
  it('starts processing on the next turn, after the handlers registered in this one', async () => {
    const config = init()
    const host = startHost(config)
    const seen: string[] = []
    host.handlers.on('MATERIAL_DELETED', (_event, { key }) => void seen.push(key))
    await storeAndWait(config.store)
    expect(seen).toEqual(['evt_1'])
    await host.lifecycle.close()
  })

  it('never starts when stopped in the same turn, nor without processing here', async () => {
    for (const overrides of [{}, { processing: false as const }, { autoStart: false }]) {
      const config = init(overrides)
      const host = startHost(config)
      const seen: string[] = []
      host.handlers.onAny((_event, { key }) => void seen.push(key))
      if (Object.keys(overrides).length === 0) await host.lifecycle.stop()
      await storeAndWait(config.store)
      expect(seen, JSON.stringify(overrides)).toEqual([])
      expect(host.worker.liveness().running).toBe(false)
      await host.lifecycle.close()
    }
  })

  it('reports the worker off in health() without processing here, stopped after stop()', async () => {
    const off = startHost(init({ processing: false }))
    expect((await off.lifecycle.health()).worker).toEqual({ ok: true, state: 'off', lastLoopAgeMs: null })
    await off.lifecycle.close()
    const stopped = startHost(init())
    await stopped.lifecycle.stop()
    expect((await stopped.lifecycle.health()).worker.state).toBe('stopped')
    await stopped.lifecycle.close()
  })

  it('close() stops the retention schedule, then closes the store', async () => {
    const config = init({ retention: { doneOlderThanMs: 0, deadOlderThanMs: undefined, everyMs: 60_000 } })
    const host = startHost(config)
    const errors: string[] = []
    host.handlers.onError((error) => void errors.push(error.message))
    await host.lifecycle.close()
    for (let turn = 0; turn < 5; turn++) await nextTurn()
    // A prune still scheduled would have run on the closed store, and failed to onError.
    expect(errors).toEqual([])
    await expect(config.store.counts()).rejects.toThrow(/closed/)
  })
})
