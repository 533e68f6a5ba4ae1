import {
  DELETE_ACTIONS,
  INBOUND_SOURCES,
  METADATA_CHANGE_TYPES,
  VERSION_ACTIONS,
  VERSION_REMOVE_TYPES,
} from './asset-events.ts'
import { ASSET_SOURCES, FOLDER_CHANGE_TYPES } from './folder-callback.ts'

/** Where an event holds an open enum: its path (`*`: every item of an array) and the known values. */
export interface OpenEnumField {
  path: readonly string[]
  known: readonly (string | number)[]
}

/**
 * The open enums of each webhook body. The schemas accept any value there; a receiver compares
 * what arrived with the known values to report the ones this SDK does not know yet.
 */
export const OPEN_ENUM_FIELDS: Readonly<Record<string, readonly OpenEnumField[]>> = {
  FOLDER_CONTENT_UPDATE: [
    { path: ['type'], known: FOLDER_CHANGE_TYPES },
    { path: ['assets', '*', 'source'], known: ASSET_SOURCES },
  ],
  MATERIAL_INBOUND_COMPLETED: [{ path: ['payload', 'source'], known: INBOUND_SOURCES }],
  MATERIAL_ADDED_TO_FOLDER: [],
  MATERIAL_METADATA_UPDATED: [{ path: ['payload', 'changeType'], known: METADATA_CHANGE_TYPES }],
  MATERIAL_VERSION_CHANGED: [
    { path: ['payload', 'action'], known: VERSION_ACTIONS },
    { path: ['payload', 'removeType'], known: VERSION_REMOVE_TYPES },
  ],
  MATERIAL_DELETED: [{ path: ['payload', 'deleteAction'], known: DELETE_ACTIONS }],
}
