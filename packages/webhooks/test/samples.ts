/**
 * Raw bodies as the service sends them (spec/openapi.yaml `webhooks`; docs/service/webhooks.md): ids as raw JSON
 * integers, often beyond 2^53, so they are written as text here, never through JSON.stringify.
 */
export const BIG = '1951438207513255936' // > 2^53: JSON.parse would round it
export const USER = '1673603133161799680'

/** The live sample's shape: epoch-ms eventTime string, no orgId, every nullable field null. */
export const folderNullHeavyEpoch = `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1949870453162360832,"eventTime":"1753946835010","type":"ADD","assets":[{"id":${BIG},"parentIds":[1949870453162360832],"userId":"${USER}","name":"IMG_0042.jpg","downloadUrl":null,"source":2,"link":null,"extension":"jpg","duration":null,"size":null,"width":null,"height":null,"description":null,"score":null,"createUser":"${USER}"}]}`

/** The table's form: ISO 8601 with an offset; orgId present; some nullable fields null, some absent. */
export const folderIsoUpdate = `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":12,"eventTime":"2025-07-31T15:27:15.010+08:00","type":"UPDATE","orgId":4021,"assets":[{"id":98765,"parentIds":[1,12],"userId":"${USER}","name":"spec-sheet.pdf","downloadUrl":"https://assets.service.test/d/98765?sig=def","source":1,"link":"https://acme.com/spec","extension":"pdf","size":220,"description":"Updated spec sheet","createUser":"1002","duration":null,"score":null}]}`

/** DELETE: assets may carry identifying fields only. */
export const folderDelete = `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1949870453162360832,"eventTime":"1753946900000","type":"DELETE","assets":[{"id":${BIG}},{"id":1951438207513255937,"parentIds":[1949870453162360832]}]}`

export const inboundUpload = `{"eventId":"evt_inbound_1","eventType":"MATERIAL_INBOUND_COMPLETED","eventTime":"1753946835010","payload":{"source":"UPLOAD_ASSETS","initiatorUserId":${USER},"uploadResults":[{"id":${BIG},"name":"hero","extension":"png","size":1048576,"width":1920,"height":1080,"uploadStatus":1}],"materialIds":[${BIG}]}}`

export const inboundPending = `{"eventId":"evt_inbound_2","eventType":"MATERIAL_INBOUND_COMPLETED","eventTime":"1753946835011","payload":{"source":"PENDING_INBOUND_CONFIRM","initiatorUserId":1002,"pendingInboundIdToMaterialId":{"1951438207513255001":${BIG},"77":78}}}`

export const addedToFolder = `{"eventId":"evt_added_1","eventType":"MATERIAL_ADDED_TO_FOLDER","eventTime":"1753946836120","payload":{"materialIds":[${BIG},55],"folderIds":[1949870453162360832]}}`

const metadata = (n: number, payload: string) =>
  `{"eventId":"evt_meta_${n}","eventType":"MATERIAL_METADATA_UPDATED","eventTime":"${1753946840000 + n}","payload":${payload}}`

/** One per changeType, materials[] holding only the fields of that changeType. */
export const metadataByChangeType = {
  BASIC: metadata(
    0,
    `{"changeType":"BASIC","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"name":"hero-final","description":"Final hero","score":5,"link":"https://acme.com/summer"}]}`,
  ),
  VALIDITY: metadata(
    1,
    `{"changeType":"VALIDITY","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"validityStatus":2,"validityStatusName":"Expiring soon","daysToExpire":3,"startTime":1753946835010,"endTime":1754206035010,"isPermanent":false}]}`,
  ),
  TAGS: metadata(
    2,
    `{"changeType":"TAGS","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"tagIds":[1951438207513200001,17],"tagNames":["summer","homepage"]}]}`,
  ),
  OWNER: metadata(
    3,
    `{"changeType":"OWNER","materialIds":[${BIG}],"materials":[{"materialId":1951438207513255940,"ownerUserId":${USER}}]}`,
  ),
  METADATA: metadata(
    4,
    `{"changeType":"METADATA","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"recordId":1951438207513299999,"metadata":{"campaign":"summer-2025","reviewed":true}}]}`,
  ),
  CUSTOM_FIELD: metadata(
    5,
    `{"changeType":"CUSTOM_FIELD","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"customFields":[{"templateId":501,"name":"Quarter","value":"Q3"},{"templateId":1951438207513200502}]}]}`,
  ),
} as const

export const versionSetCover = `{"eventId":"evt_version_1","eventType":"MATERIAL_VERSION_CHANGED","eventTime":"1753946850000","payload":{"coverMaterialId":${BIG},"newMaterialId":1951438207513255941,"action":"SET_COVER","version":2}}`

export const versionRemove = `{"eventId":"evt_version_2","eventType":"MATERIAL_VERSION_CHANGED","eventTime":"1753946850001","payload":{"coverMaterialId":1951438207513255941,"newMaterialId":${BIG},"action":"REMOVE","removeType":"DELETE","versionGroupDissolved":true}}`

export const deletedRecycle = `{"eventId":"evt_deleted_1","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[${BIG}],"deleteAction":"RECYCLE","folderIds":[1949870453162361000],"materials":[{"materialId":${BIG},"name":"hero","materialType":1,"extension":"png","tagIds":[17],"tagNames":["homepage"],"folderIds":[1949870453162360832],"ownerUserId":${USER},"createUserId":${USER}}]}}`

export const deletedPermanent = `{"eventId":"evt_deleted_2","eventType":"MATERIAL_DELETED","eventTime":"1756538860000","payload":{"materialIds":[${BIG}],"deleteAction":"PERMANENT"}}`

/** Fields the SDK does not know, at every level. */
export const withUnknownFields = `{"eventId":"evt_unknown_fields","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","traceId":"t-1","payload":{"materialIds":[${BIG}],"deleteAction":"RECYCLE","operator":{"id":${USER},"via":"api"},"materials":[{"materialId":${BIG},"sizeBytes":12345678901234567890}]}}`

/** An eventType the SDK does not know. */
export const unknownEventType = `{"eventId":"evt_new_kind","eventType":"MATERIAL_SHARED","eventTime":"1753946870000","payload":{"materialIds":[${BIG}],"sharedWith":[{"userId":${USER}}]}}`

export const ALL_SAMPLES: Record<string, string> = {
  folderNullHeavyEpoch,
  folderIsoUpdate,
  folderDelete,
  inboundUpload,
  inboundPending,
  addedToFolder,
  ...Object.fromEntries(Object.entries(metadataByChangeType).map(([k, v]) => [`metadata${k}`, v])),
  versionSetCover,
  versionRemove,
  deletedRecycle,
  deletedPermanent,
  withUnknownFields,
  unknownEventType,
}
