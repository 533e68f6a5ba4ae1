// Generated bodies of every kind the service documents (spec/openapi.yaml) (any subset of the optional fields, nulls
// where the service sends them, enum values the SDK does not know, extra fields, ids beyond 2^53
// as numbers or strings): each reaches its handler and onAny once, none is dead-lettered, and the
// only warnings are about unknown enum values.
import { stringifyJson } from '@service-sdk/core/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type HandlerContext } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { assetEvent, folderCallback, payloads } from './body-arbitraries.ts'

const token = generateWebhookToken()

/** A 19-digit eventId written as a raw JSON integer, or a string. */
let serial = 0
function eventId(numeric: boolean): bigint | string {
  serial++
  return numeric ? 1951438207513255936n + BigInt(serial) : `evt-${serial}`
}

describe('bodies the service documents', () => {
  it('each is handled once, by its handler and onAny; none is dead-lettered', async () => {
    const receiver = createWebhookReceiver({
      token,
      store: memoryStoreForTests(),
      processing: { autoStart: false },
    })
    const typed = new Map<string, number>()
    const any = new Map<string, HandlerContext>()
    for (const type of ['FOLDER_CONTENT_UPDATE', ...Object.keys(payloads)]) {
      receiver.on(type as 'MATERIAL_DELETED', (_e, { key }) => void typed.set(key, (typed.get(key) ?? 0) + 1))
    }
    receiver.onAny((_e, context) => {
      expect(any.has(context.key)).toBe(false)
      any.set(context.key, context)
    })

    const body = fc.oneof(
      // A serial number as an extra field: two equal folder callbacks would be one delivery.
      folderCallback.map((callback) => ({ ...callback, n: ++serial })),
      assetEvent.map(({ eventType, payload, more, ms, numericId }) => ({
        ...more,
        eventId: eventId(numericId),
        eventType,
        eventTime: String(ms),
        payload,
      })),
    )
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const text = stringifyJson(value)
        const receipt = await receiver.receive({
          method: 'POST',
          url: `/webhooks/${token}`,
          contentType: 'application/json',
          body: text,
        })
        expect(receipt, text).toMatchObject({ status: 200, duplicate: false })
        await receiver.drain()
        const key = receipt.key!
        expect(typed.get(key), text).toBe(1)
        const context = any.get(key)
        expect(context, text).toBeDefined()
        // Only values the SDK does not know are reported: everything else fits its schema.
        for (const w of context!.warnings)
          expect(w.message, `${text}: ${w.path}`).toMatch(/^a value this SDK does not know/)
        if ('eventId' in value && typeof value.eventId === 'bigint') expect(key).toBe(String(value.eventId))
      }),
      { numRuns: 400 },
    )
    const counts = await receiver.events.counts()
    expect(counts).toMatchObject({ pending: 0, processing: 0, dead: 0 })
    expect(counts.done).toBe(any.size)
    await receiver.close()
  }, 120_000)
})
