import { z } from 'zod'
import { eventTimeSchema } from './event-time.ts'
import { idSchema } from './ids.ts'

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
 * interface §6.3) and receivers must not enforce a fixed schema: every field is optional, unknown
 * fields are kept, and a known field sent as null is read as absent.
 */
function payloadObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.preprocess(withoutNull(Object.keys(shape)), z.looseObject(shape))
}

const ids = z.array(idSchema).exactOptional()
const text = z.string().exactOptional()
const count = z.number().exactOptional()
const flag = z.boolean().exactOptional()
// Fields whose type the interface does not show.
const code = z.union([z.number(), z.string()]).exactOptional()

function event<T extends string, P extends z.ZodType>(eventType: T, payload: P) {
  return z.looseObject({
    eventId: z.string(),
    eventType: z.literal(eventType),
    eventTime: eventTimeSchema,
    payload,
  })
}

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
  source: z.enum(['UPLOAD_ASSETS', 'PENDING_INBOUND_CONFIRM']).exactOptional(),
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

/** The MATERIAL_METADATA_UPDATED payload; `materials[]` items are typed by `changeType`. */
export const materialMetadataUpdatedPayloadSchema = z.preprocess(
  withoutNull(['materialIds', 'materials']),
  z.discriminatedUnion('changeType', [
    metadataVariant('BASIC', basicChangeSchema),
    metadataVariant('VALIDITY', validityChangeSchema),
    metadataVariant('TAGS', tagsChangeSchema),
    metadataVariant('OWNER', ownerChangeSchema),
    metadataVariant('METADATA', metadataChangeSchema),
    metadataVariant('CUSTOM_FIELD', customFieldChangeSchema),
  ]),
)

export const materialMetadataUpdatedEventSchema = event(
  'MATERIAL_METADATA_UPDATED',
  materialMetadataUpdatedPayloadSchema,
)

// ---------------------------------------------------------------- MATERIAL_VERSION_CHANGED

export const versionActionSchema = z.enum(['ADD', 'SET_COVER', 'REPLACE_COVER_ON_UPLOAD', 'REMOVE'])

export const materialVersionChangedPayloadSchema = payloadObject({
  coverMaterialId: idSchema.exactOptional(),
  newMaterialId: idSchema.exactOptional(),
  action: versionActionSchema.exactOptional(),
  version: z.unknown().exactOptional(),
  removeType: z.enum(['ADD', 'DELETE']).exactOptional(),
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
  deleteAction: z.enum(['RECYCLE', 'PERMANENT']).exactOptional(),
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
