// Generated bodies of every kind the service documents (spec/openapi.yaml) (any subset of the optional fields, nulls
// where the service sends them, enum values the SDK does not know, extra fields, ids beyond 2^53
// as numbers or strings): each reaches its handler and onAny once, none is dead-lettered, and the
// only warnings are about unknown enum values.
import { stringifyJson } from '@service-sdk/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createWebhookReceiver, type HandlerContext } from '../src/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { generateWebhookToken } from '../src/token.ts'

const token = generateWebhookToken()

/** An id: a safe integer, a 64-bit one written as a raw JSON integer (a bigint), or its digits. */
const id = fc.oneof(
  fc.nat(),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
  fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String),
)
const ids = fc.array(id, { maxLength: 3 })
const orNull = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null))
/** One of the known values, or a value the service may have added since. */
const open = (...known: string[]) =>
  fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^[A-Z][A-Z_]{0,15}$/))
const text = fc.string({ maxLength: 12 })
const int = fc.integer({ min: 0, max: 2 ** 40 })
const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 })
const eventTime = fc.oneof(
  epochMs.map(String),
  epochMs,
  epochMs.map((ms) => new Date(ms).toISOString().replace('Z', '+00:00')),
)

/** Fields nobody documented, prototype names included, with any JSON under them. */
const extra = fc.dictionary(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'traceId', 'newField', 'x-y'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
)
/** A record of optional fields (any subset present) plus extra fields. */
const loose = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.tuple(fc.record(fields, { requiredKeys: [] }), extra).map(([known, more]) => ({ ...more, ...known }))

const folderAsset = fc
  .tuple(
    id,
    loose({
      parentIds: orNull(ids),
      userId: orNull(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String)),
      name: orNull(text),
      downloadUrl: orNull(fc.webUrl()),
      source: orNull(fc.oneof(fc.constantFrom(1, 2, 3), fc.integer({ min: 0, max: 99 }))),
      link: orNull(text),
      extension: orNull(text),
      duration: orNull(int),
      size: orNull(int),
      width: orNull(int),
      height: orNull(int),
      description: orNull(text),
      score: orNull(fc.integer({ min: 0, max: 5 })),
      createUser: orNull(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String)),
    }),
  )
  .map(([assetId, rest]) => ({ ...rest, id: assetId }))

const folderCallback = fc
  .tuple(
    fc.boolean(),
    id,
    open('ADD', 'UPDATE', 'DELETE'),
    orNull(fc.array(folderAsset, { maxLength: 3 })),
    loose({ eventTime, orgId: orNull(id) }),
  )
  .map(([typed, folderId, type, assets, rest]) => ({
    ...rest,
    ...(typed ? { eventType: 'FOLDER_CONTENT_UPDATE' } : {}),
    folderId,
    type,
    assets,
  }))

/** Asset-event payload fields: absent means no value, and a null is read as absent. */
const payloads: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  MATERIAL_INBOUND_COMPLETED: loose({
    source: orNull(open('UPLOAD_ASSETS', 'PENDING_INBOUND_CONFIRM')),
    initiatorUserId: orNull(id),
    uploadResults: orNull(
      fc.array(
        loose({
          id,
          name: text,
          extension: text,
          size: int,
          width: int,
          height: int,
          uploadStatus: fc.oneof(int, text),
        }),
        { maxLength: 2 },
      ),
    ),
    materialIds: orNull(ids),
    pendingInboundIdToMaterialId: orNull(fc.dictionary(fc.stringMatching(/^\d{1,19}$/), id, { maxKeys: 2 })),
  }),
  MATERIAL_ADDED_TO_FOLDER: loose({ materialIds: orNull(ids), folderIds: orNull(ids) }),
  MATERIAL_METADATA_UPDATED: fc
    .tuple(
      open('BASIC', 'VALIDITY', 'TAGS', 'OWNER', 'METADATA', 'CUSTOM_FIELD'),
      loose({ materialIds: orNull(ids) }),
    )
    // Items of a known changeType hold materialId (the field every changeType shares).
    .chain(([changeType, rest]) =>
      fc
        .option(fc.array(loose({ materialId: id }), { maxLength: 2 }))
        .map((materials) => ({ ...rest, changeType, ...(materials === null ? {} : { materials }) })),
    ),
  MATERIAL_VERSION_CHANGED: loose({
    coverMaterialId: orNull(id),
    newMaterialId: orNull(id),
    action: orNull(open('ADD', 'SET_COVER', 'REPLACE_COVER_ON_UPLOAD', 'REMOVE')),
    version: fc.jsonValue({ maxDepth: 1 }),
    removeType: orNull(open('ADD', 'DELETE')),
    versionGroupDissolved: orNull(fc.boolean()),
  }),
  MATERIAL_DELETED: loose({
    materialIds: orNull(ids),
    deleteAction: orNull(open('RECYCLE', 'PERMANENT')),
    folderIds: orNull(ids),
    materials: orNull(
      fc.array(
        loose({ materialId: id, name: text, materialType: fc.oneof(int, text), tagIds: ids, folderIds: ids }),
        { maxLength: 2 },
      ),
    ),
  }),
}

const assetEvent = fc
  .constantFrom(...Object.keys(payloads))
  .chain((eventType) =>
    fc
      .tuple(payloads[eventType]!, extra, epochMs, fc.boolean())
      .map(([payload, more, ms, numericId]) => ({ eventType, payload, more, ms, numericId })),
  )

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
