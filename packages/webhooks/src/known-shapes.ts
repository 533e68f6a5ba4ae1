import { FOLDER_CONTENT_UPDATE, type METADATA_CHANGE_TYPES } from '@service-sdk/core'
import type { KnownEventType } from './events.ts'
import {
  array,
  boolean,
  code,
  eventTime,
  id,
  looseObject,
  MISMATCH,
  nullable,
  number,
  optional,
  type Reader,
  record,
  required,
  string,
  unknown,
} from './shape-reader.ts'

// core's tolerant wire schemas (core/src/schemas/folder-callback.ts, asset-events.ts), field by
// field in their order, as readers (see shape-reader.ts for why). A change there needs one here:
// known-shapes.test.ts compares the two on generated bodies.

const ids = optional(array(id))
const text = optional(string)
const count = optional(number)
const flag = optional(boolean)
const optionalCode = optional(code)
const optionalId = optional(id)
const orNull = (read: Reader) => optional(nullable(read))

// ---------------------------------------------------------------- FOLDER_CONTENT_UPDATE

const folderAsset = looseObject({
  id: required(id),
  parentIds: orNull(array(id)),
  userId: orNull(id),
  name: orNull(string),
  downloadUrl: orNull(string),
  source: orNull(number),
  link: orNull(string),
  extension: orNull(string),
  duration: orNull(number),
  size: orNull(number),
  width: orNull(number),
  height: orNull(number),
  description: orNull(string),
  score: orNull(number),
  createUser: orNull(id),
})

const folderCallback = looseObject({
  eventType: required(literal(FOLDER_CONTENT_UPDATE)),
  folderId: required(id),
  eventTime: optional(eventTime),
  type: required(string),
  assets: required(nullable(array(folderAsset))),
  orgId: orNull(id),
})

// ---------------------------------------------------------------- asset events

/** core's payloadObject: a loose object whose known fields sent as null are read as absent. */
const payload = (shape: Parameters<typeof looseObject>[0]) => looseObject(shape, true)

function event(eventType: KnownEventType, read: Reader): Reader {
  return looseObject({
    eventId: required(string),
    eventType: required(literal(eventType)),
    eventTime: required(eventTime),
    payload: required(read),
  })
}

const inboundCompleted = payload({
  source: text,
  initiatorUserId: optionalId,
  uploadResults: optional(
    array(
      payload({
        id: optionalId,
        name: text,
        extension: text,
        size: count,
        width: count,
        height: count,
        uploadStatus: optionalCode,
      }),
    ),
  ),
  materialIds: ids,
  pendingInboundIdToMaterialId: optional(record(id)),
})

const addedToFolder = payload({ materialIds: ids, folderIds: ids })

/** The items of `materials[]` for each known changeType. */
const CHANGE_ITEMS: Record<(typeof METADATA_CHANGE_TYPES)[number], Reader> = {
  BASIC: payload({ materialId: optionalId, name: text, description: text, score: count, link: text }),
  VALIDITY: payload({
    materialId: optionalId,
    validityStatus: optionalCode,
    validityStatusName: text,
    daysToExpire: count,
    startTime: optionalCode,
    endTime: optionalCode,
    isPermanent: flag,
  }),
  TAGS: payload({ materialId: optionalId, tagIds: ids, tagNames: optional(array(string)) }),
  OWNER: payload({ materialId: optionalId, ownerUserId: optionalId }),
  METADATA: payload({ materialId: optionalId, recordId: optionalId, metadata: optional(record(unknown)) }),
  CUSTOM_FIELD: payload({
    materialId: optionalId,
    customFields: optional(array(payload({ templateId: optionalId }))),
  }),
}

const metadataPayloads = new Map<unknown, Reader>(
  Object.entries(CHANGE_ITEMS).map(([changeType, item]) => [changeType, metadataPayload(item)]),
)
/** A changeType this SDK does not know: items kept as sent. */
const otherMetadataPayload = metadataPayload(record(unknown))

/** The payload for one changeType (a null changeType is no string: MISMATCH either way). */
function metadataPayload(item: Reader): Reader {
  return payload({ changeType: required(string), materialIds: ids, materials: optional(array(item)) })
}

const metadataUpdated: Reader = (v) => {
  const changeType =
    typeof v === 'object' && v !== null ? (v as Record<string, unknown>).changeType : undefined
  if (typeof changeType !== 'string') return MISMATCH
  return (metadataPayloads.get(changeType) ?? otherMetadataPayload)(v)
}

const versionChanged = payload({
  coverMaterialId: optionalId,
  newMaterialId: optionalId,
  action: text,
  version: optional(unknown),
  removeType: text,
  versionGroupDissolved: flag,
})

const deleted = payload({
  materialIds: ids,
  deleteAction: text,
  folderIds: ids,
  materials: optional(
    array(
      payload({
        materialId: optionalId,
        name: text,
        materialType: optionalCode,
        extension: text,
        tagIds: ids,
        tagNames: optional(array(string)),
        folderIds: ids,
        ownerUserId: optionalId,
        createUserId: optionalId,
      }),
    ),
  ),
})

const READERS: Record<KnownEventType, Reader> = {
  FOLDER_CONTENT_UPDATE: folderCallback,
  MATERIAL_INBOUND_COMPLETED: event('MATERIAL_INBOUND_COMPLETED', inboundCompleted),
  MATERIAL_ADDED_TO_FOLDER: event('MATERIAL_ADDED_TO_FOLDER', addedToFolder),
  MATERIAL_METADATA_UPDATED: event('MATERIAL_METADATA_UPDATED', metadataUpdated),
  MATERIAL_VERSION_CHANGED: event('MATERIAL_VERSION_CHANGED', versionChanged),
  MATERIAL_DELETED: event('MATERIAL_DELETED', deleted),
}

/**
 * What core's schema for `eventType` gives for `body` when it accepts it, or MISMATCH when this
 * reader is not sure it would (then ask the schema).
 */
export function readKnownShape(eventType: KnownEventType, body: Record<string, unknown>): unknown {
  return READERS[eventType](body)
}

function literal(value: string): Reader {
  return (v) => (v === value ? v : MISMATCH)
}
