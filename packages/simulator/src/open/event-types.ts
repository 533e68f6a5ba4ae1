/** The asset events that may be subscribed (spec: `AssetEventType`); no others are offered. */
export const ASSET_EVENTS = [
  { code: 'MATERIAL_INBOUND_COMPLETED', desc: 'Asset intake actually succeeded' },
  { code: 'MATERIAL_ADDED_TO_FOLDER', desc: 'Asset added to a folder' },
  { code: 'MATERIAL_METADATA_UPDATED', desc: 'Asset metadata changed' },
  { code: 'MATERIAL_VERSION_CHANGED', desc: 'Asset version added, set as cover, or removed' },
  { code: 'MATERIAL_DELETED', desc: 'Asset deleted' },
] as const

export type AssetEventCode = (typeof ASSET_EVENTS)[number]['code']

/** The one event type of a folder subscription (spec: `FolderEventType`), its default. */
export const FOLDER_CONTENT_UPDATE = 'FOLDER_CONTENT_UPDATE'
