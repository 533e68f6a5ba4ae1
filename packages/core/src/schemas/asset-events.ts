import { z } from 'zod'
import { eventTimeSchema } from './event-time.ts'
import { idSchema } from './ids.ts'
import { openEnum } from './open-enum.ts'
import { tolerance } from './tolerance.ts'

/** Drops the given fields when they are null, leaving anything else as it is. */
function withoutNull(fields: Iterable<string>) {
  const known = new Set(fields)
  return (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
    return Object.fromEntries(Object.entries(value).filter(([key, v]) => !(v === null && known.has(key))))
  }
}

/**
 * A payload object of an asset event. Its fields may be absent ("absent means no value",
 * docs/service/subscriptions.md) and receivers must not enforce a fixed schema: every field is optional, unknown
 * fields are kept, and a known field sent as null is read as absent.
 */
function payloadObject<S extends z.core.$ZodLooseShape>(shape: S) {
  const fields = Object.keys(shape)
  return z.preprocess(withoutNull(fields), z.looseObject(shape)).register(tolerance, { nullAsAbsent: fields })
}

const ids = z.array(idSchema).exactOptional()
const text = z.string().exactOptional()
const count = z.number().exactOptional()
const flag = z.boolean().exactOptional()
// Fields whose type the service's documentation does not show.
const code = z.union([z.number(), z.string()]).exactOptional()

function event<T extends string, P extends z.ZodType>(eventType: T, payload: P) {
  return z.looseObject({
    eventId: z.string(),
    eventType: z.literal(eventType),
    eventTime: eventTimeSchema,
    payload,
  })
}

// The known values of each open enum (the service may send others; they are kept).
export const INBOUND_SOURCES = ['UPLOAD_ASSETS', 'PENDING_INBOUND_CONFIRM'] as const
export const METADATA_CHANGE_TYPES = [
  'BASIC',
  'VALIDITY',
  'TAGS',
  'OWNER',
  'METADATA',
  'CUSTOM_FIELD',
] as const
export const VERSION_ACTIONS = ['ADD', 'SET_COVER', 'REPLACE_COVER_ON_UPLOAD', 'REMOVE'] as const
export const VERSION_REMOVE_TYPES = ['ADD', 'DELETE'] as const
export const DELETE_ACTIONS = ['RECYCLE', 'PERMANENT'] as const

// ---------------------------------------------------------------- MATERIAL_INBOUND_COMPLETED

export const inboundUploadResultSchema = payloadObject({
  id: idSchema.exactOptional(),
  name: text,
  extension: text,
  size: count,
  width: count,
  height: count,
  uploadStatus: code,
})

export const materialInboundCompletedPayloadSchema = payloadObject({
  source: openEnum(INBOUND_SOURCES).exactOptional(),
  initiatorUserId: idSchema.exactOptional(),
  uploadResults: z.array(inboundUploadResultSchema).exactOptional(),
  materialIds: ids,
  pendingInboundIdToMaterialId: z.record(z.string(), idSchema).exactOptional(),
})

export const materialInboundCompletedEventSchema = event(
  'MATERIAL_INBOUND_COMPLETED',
  materialInboundCompletedPayloadSchema,
)

// ---------------------------------------------------------------- MATERIAL_ADDED_TO_FOLDER

export const materialAddedToFolderPayloadSchema = payloadObject({ materialIds: ids, folderIds: ids })

export const materialAddedToFolderEventSchema = event(
  'MATERIAL_ADDED_TO_FOLDER',
  materialAddedToFolderPayloadSchema,
)

// ---------------------------------------------------------------- MATERIAL_METADATA_UPDATED

export const basicChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  name: text,
  description: text,
  score: count,
  link: text,
})

export const validityChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  validityStatus: code,
  validityStatusName: text,
  daysToExpire: count,
  startTime: code,
  endTime: code,
  isPermanent: flag,
})

export const tagsChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  tagIds: ids,
  tagNames: z.array(z.string()).exactOptional(),
})

export const ownerChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  ownerUserId: idSchema.exactOptional(),
})

export const metadataChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  recordId: idSchema.exactOptional(),
  metadata: z.record(z.string(), z.unknown()).exactOptional(),
})

export const customFieldValueSchema = payloadObject({ templateId: idSchema.exactOptional() })

export const customFieldChangeSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  customFields: z.array(customFieldValueSchema).exactOptional(),
})

function metadataVariant<T extends string, I extends z.ZodType>(changeType: T, item: I) {
  return z.looseObject({
    changeType: z.literal(changeType),
    materialIds: ids,
    materials: z.array(item).exactOptional(),
  })
}

const knownMetadataPayloadSchema = z.discriminatedUnion('changeType', [
  metadataVariant('BASIC', basicChangeSchema),
  metadataVariant('VALIDITY', validityChangeSchema),
  metadataVariant('TAGS', tagsChangeSchema),
  metadataVariant('OWNER', ownerChangeSchema),
  metadataVariant('METADATA', metadataChangeSchema),
  metadataVariant('CUSTOM_FIELD', customFieldChangeSchema),
])

/** A payload whose changeType this SDK does not know (the service added one): items kept as sent. */
export const otherMetadataChangePayloadSchema = z.looseObject({
  changeType: z.string(),
  materialIds: ids,
  materials: z.array(z.record(z.string(), z.unknown())).exactOptional(),
})

// Declared, not inferred: the known payloads fit the catch-all's shape, and an inferred union
// would be reduced to the catch-all alone.
type KnownMetadataPayload = z.output<typeof knownMetadataPayloadSchema>
type OtherMetadataPayload = z.output<typeof otherMetadataChangePayloadSchema>

const KNOWN_CHANGE_TYPES: ReadonlySet<unknown> = new Set(METADATA_CHANGE_TYPES)
const METADATA_NULL_AS_ABSENT = ['materialIds', 'materials']

/**
 * The MATERIAL_METADATA_UPDATED payload; `materials[]` items are typed by `changeType`. Another
 * changeType gives an `OtherMetadataChangePayload` (narrow with `isKnownChangeType`). Dispatched
 * by hand rather than with a union, so that an item of the wrong shape for a known changeType is
 * reported where it is, instead of falling through to the catch-all.
 */
export const materialMetadataUpdatedPayloadSchema = z
  .preprocess(
    withoutNull(METADATA_NULL_AS_ABSENT),
    z
      .looseObject({ changeType: z.string() })
      .transform((payload, ctx): KnownMetadataPayload | OtherMetadataPayload => {
        const result = KNOWN_CHANGE_TYPES.has(payload.changeType)
          ? knownMetadataPayloadSchema.safeParse(payload)
          : otherMetadataChangePayloadSchema.safeParse(payload)
        if (result.success) return result.data
        // The inner issues keep their paths (the parent prefixes `payload`).
        for (const issue of result.error.issues) ctx.addIssue(issue as never)
        return z.NEVER
      }),
  )
  .register(tolerance, {
    nullAsAbsent: METADATA_NULL_AS_ABSENT,
    dispatch: {
      key: 'changeType',
      known: knownMetadataPayloadSchema,
      other: otherMetadataChangePayloadSchema,
    },
  })

type MetadataPayload = z.output<typeof materialMetadataUpdatedPayloadSchema>

/** Whether a MATERIAL_METADATA_UPDATED payload has a known changeType (`switch (payload.changeType)` then narrows). */
export function isKnownChangeType(payload: MetadataPayload): payload is KnownMetadataPayload {
  return KNOWN_CHANGE_TYPES.has(payload.changeType)
}

export const materialMetadataUpdatedEventSchema = event(
  'MATERIAL_METADATA_UPDATED',
  materialMetadataUpdatedPayloadSchema,
)

// ---------------------------------------------------------------- MATERIAL_VERSION_CHANGED

export const versionActionSchema = openEnum(VERSION_ACTIONS)

export const materialVersionChangedPayloadSchema = payloadObject({
  coverMaterialId: idSchema.exactOptional(),
  newMaterialId: idSchema.exactOptional(),
  action: versionActionSchema.exactOptional(),
  version: z.unknown().exactOptional(),
  removeType: openEnum(VERSION_REMOVE_TYPES).exactOptional(),
  versionGroupDissolved: flag,
})

export const materialVersionChangedEventSchema = event(
  'MATERIAL_VERSION_CHANGED',
  materialVersionChangedPayloadSchema,
)

// ---------------------------------------------------------------- MATERIAL_DELETED

export const deletedMaterialSnapshotSchema = payloadObject({
  materialId: idSchema.exactOptional(),
  name: text,
  materialType: code,
  extension: text,
  tagIds: ids,
  tagNames: z.array(z.string()).exactOptional(),
  folderIds: ids,
  ownerUserId: idSchema.exactOptional(),
  createUserId: idSchema.exactOptional(),
})

export const materialDeletedPayloadSchema = payloadObject({
  materialIds: ids,
  deleteAction: openEnum(DELETE_ACTIONS).exactOptional(),
  folderIds: ids,
  materials: z.array(deletedMaterialSnapshotSchema).exactOptional(),
})

export const materialDeletedEventSchema = event('MATERIAL_DELETED', materialDeletedPayloadSchema)

// ---------------------------------------------------------------- any asset event

/** Any asset-event webhook body, discriminated by `eventType`. */
export const assetEventSchema = z.discriminatedUnion('eventType', [
  materialInboundCompletedEventSchema,
  materialAddedToFolderEventSchema,
  materialMetadataUpdatedEventSchema,
  materialVersionChangedEventSchema,
  materialDeletedEventSchema,
])
