// Arbitraries for the bodies the service documents (spec/openapi.yaml): any subset of the optional
// fields, nulls where the service sends them, enum values the SDK does not know, extra fields
// (prototype names included), ids beyond 2^53 as numbers or strings.
import fc from 'fast-check'

/** An id: a safe integer, a 64-bit one written as a raw JSON integer (a bigint), or its digits. */
export const id = fc.oneof(
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
export const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 })
const eventTime = fc.oneof(
  epochMs.map(String),
  epochMs,
  epochMs.map((ms) => new Date(ms).toISOString().replace('Z', '+00:00')),
)

/** Fields nobody documented, prototype names included, with any JSON under them. */
export const extra = fc.dictionary(
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

export const folderCallback = fc
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
export const payloads: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
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

export const assetEvent = fc
  .constantFrom(...Object.keys(payloads))
  .chain((eventType) =>
    fc
      .tuple(payloads[eventType]!, extra, epochMs, fc.boolean())
      .map(([payload, more, ms, numericId]) => ({ eventType, payload, more, ms, numericId })),
  )
