import type { SimContext } from '../context.ts'
import type { Id, Material } from '../state.ts'
import { folderPath } from './material-lookup.ts'

/** source of MaterialCallbackDTO: 1 web page, 2 upload, 3 copy. Every simulated asset was uploaded. */
const SOURCE_UPLOAD = 2

/** The original file name: the saved name plus its extension. */
export function fileName(m: Material): string {
  return m.extension ? `${m.name}.${m.extension}` : m.name
}

/**
 * A MaterialCallbackDTO (interface §2.6) for ADD and UPDATE. Ids are bigint (raw JSON integers),
 * userId and createUser strings, as in the live sample; fields without a value are null.
 * `size` is in bytes: the table says KB, comparable samples carry bytes (field-notes §3).
 */
export function callbackAsset(sim: SimContext, m: Material, userId: Id, downloadUrl: string | null) {
  return {
    id: BigInt(m.id),
    parentIds: folderPath(sim, m.folderId).map((id) => BigInt(id)),
    userId,
    name: fileName(m),
    downloadUrl,
    source: SOURCE_UPLOAD,
    link: m.link ?? null,
    extension: m.extension,
    duration: null,
    size: m.size,
    width: m.width ?? null,
    height: m.height ?? null,
    description: m.description ?? null,
    score: m.score ?? null,
    createUser: m.createUserId,
  }
}

/** For DELETE: "an asset may carry only identifying fields" (interface §2.6). */
export function identifyingAsset(sim: SimContext, m: Material, userId: Id) {
  return {
    id: BigInt(m.id),
    parentIds: folderPath(sim, m.folderId).map((id) => BigInt(id)),
    userId,
  }
}
