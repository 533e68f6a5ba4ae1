import { createHash } from 'node:crypto'
import type { Id, Material } from '../model/state.ts'
import { foldersOf } from './material-lookup.ts'

const TYPES: Array<[string, readonly string[]]> = [
  ['IMAGE', ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp', 'tif', 'tiff', 'heic', 'psd', 'ai']],
  ['VIDEO', ['mp4', 'mov', 'avi', 'mkv', 'webm', 'm4v']],
  ['AUDIO', ['mp3', 'wav', 'aac', 'flac', 'ogg', 'm4a']],
  ['DOCUMENT', ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'md', 'csv']],
]

/** The interface names materialType without its values; the simulator derives a category from the extension. */
export function materialTypeOf(extension: string): string {
  const ext = extension.toLowerCase()
  return TYPES.find(([, list]) => list.includes(ext))?.[0] ?? 'OTHER'
}

/**
 * A tag's id. The state keeps tag names only; a 19-digit id derived from the name is stable
 * across restarts without a tag table, and exercises lossless id handling in receivers.
 */
export function tagIdOf(name: string): Id {
  const hash = BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 15)}`)
  return String(1_000_000_000_000_000_000n + hash)
}

export function tagFields(tags: readonly string[]) {
  return { tagIds: tags.map((t) => BigInt(tagIdOf(t))), tagNames: [...tags] }
}

/** A MATERIAL_DELETED materials[] item: the asset as it was before deletion (spec: `DeletedMaterialSnapshot`). */
export function deletedSnapshot(m: Material) {
  return {
    materialId: BigInt(m.id),
    name: m.name,
    materialType: materialTypeOf(m.extension),
    extension: m.extension,
    ...(m.tags?.length ? tagFields(m.tags) : {}),
    // "Fields absent mean there is no value": an asset at the root only is in no folder.
    ...folderIdsOf(m),
    ownerUserId: BigInt(m.ownerUserId),
    createUserId: BigInt(m.createUserId),
  }
}

function folderIdsOf(m: Material) {
  const folders = foldersOf(m).filter((id) => id !== '0')
  return folders.length === 0 ? {} : { folderIds: folders.map((id) => BigInt(id)) }
}
