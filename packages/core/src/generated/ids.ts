// generated from spec/openapi.yaml by scripts/generate.ts; do not edit

/**
 * Property names whose values are ids (Id, IdString), arrays of ids, or maps whose values are ids,
 * anywhere in the spec. The lossless JSON parser turns the values at these keys into decimal strings.
 */
export const ID_KEYS: ReadonlySet<string> = new Set([
  'coverMaterialId',
  'createUser',
  'createUserId',
  'folderId',
  'folderIds',
  'id',
  'initiatorUserId',
  'materialId',
  'materialIds',
  'newMaterialId',
  'orgId',
  'ownerUserId',
  'parentIds',
  'pendingInboundIdToMaterialId',
  'recordId',
  'tagIds',
  'teamId',
  'templateId',
  'userId',
])

/** The id keys whose values are JSON integers on the wire (Id, not IdString): the serializer writes them raw. */
export const INTEGER_ID_KEYS: ReadonlySet<string> = new Set([
  'coverMaterialId',
  'createUserId',
  'folderId',
  'folderIds',
  'id',
  'initiatorUserId',
  'materialId',
  'materialIds',
  'newMaterialId',
  'orgId',
  'ownerUserId',
  'parentIds',
  'pendingInboundIdToMaterialId',
  'recordId',
  'tagIds',
  'teamId',
  'templateId',
])
