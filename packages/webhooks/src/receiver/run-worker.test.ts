import { describe, expect, it } from 'vitest'
import { captureLogger } from '../../test/helpers.ts'
import * as S from '../../test/samples.ts'
import type { WebhookError } from '../errors.ts'
import { memoryStoreForTests } from '../stores/memory.ts'
import { runWorker } from './run-worker.ts'

async function stored(body: string, key: string) {
  const store = memoryStoreForTests()
  await store.insert({ key, eventType: JSON.parse(body).eventType, body, receivedAt: 1 })
  return store
}

describe('runWorker', () => {
  it('runs the handlers by type and the "*" ones for events stored by a receiver elsewhere', async () => {
    const store = await stored(S.deletedRecycle, 'evt_deleted_1')
    const seen: string[] = []
    const worker = runWorker({
      store,
      handlers: {
        MATERIAL_DELETED: (event) => void seen.push(`deleted ${event.eventId}`),
        '*': (_event, { key }) => void seen.push(`any ${key}`),
      },
    })
    await worker.drain()
    expect(seen.sort()).toEqual(['any evt_deleted_1', 'deleted evt_deleted_1'])
    expect((await store.get('evt_deleted_1'))?.status).toBe('done')
    expect(await worker.readiness()).toEqual({ ready: true })
    await worker.close()
  })

  it('retries a failing handler and reports it to onError, redacting the given secrets', async () => {
    const store = await stored(S.deletedRecycle, 'evt_deleted_1')
    const secret = 'a-secret-that-must-not-leak-0123456789'
    const errors: WebhookError[] = []
    const { logger, lines } = captureLogger()
    const worker = runWorker({
      store,
      logger,
      secrets: [secret],
      onError: (error) => void errors.push(error),
      handlers: {
        '*': () => {
          throw new Error(`upstream refused ${secret}`)
        },
      },
    })
    await worker.drain()
    await worker.stop()
    expect(errors.map((e) => e.code)).toEqual(['handler_failed'])
    expect(JSON.stringify(errors[0]) + errors[0]!.message + lines.join('\n')).not.toContain(secret)
    expect((await store.get('evt_deleted_1'))?.status).toBe('pending')
  })

  it('rejects context.transaction() with transaction_unavailable on a store without transactions', async () => {
    const store = await stored(S.deletedRecycle, 'evt_deleted_1')
    const errors: WebhookError[] = []
    const worker = runWorker({
      store,
      onError: (error) => void errors.push(error),
      handlers: { '*': async (_event, context) => void (await context.transaction()) },
    })
    await worker.drain()
    await worker.stop()
    expect(errors[0]?.message).toMatch(/no transactions: use postgresStore/)
  })
})
