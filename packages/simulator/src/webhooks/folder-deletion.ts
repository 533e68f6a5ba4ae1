import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { Id, Material, SpaceKey } from '../model/state.ts'
import { identifyingAsset } from './callback-assets.ts'
import type { Emitter } from './emitter.ts'
import { foldersOf, idListOf, live, subtreeOf } from './material-lookup.ts'

interface Callback {
  space: SpaceKey
  assets: unknown[]
}

/**
 * One deletion batch: the assets named, and the folders named with their subfolders. An asset
 * whose every folder goes is recycled with them; one also in a surviving folder only leaves the
 * deleted ones. Every folder that loses an asset gets a DELETE callback. Checks everything
 * before changing anything. Returns the recycled assets and the deleted folders per space (for
 * MATERIAL_DELETED).
 */
export function deleteBatch(
  sim: SimContext,
  emitter: Emitter,
  materialIds: unknown,
  folderIds: unknown,
): { recycled: Material[]; folderIds: Map<SpaceKey, Id[]> } {
  const gone = new Set(deletedFolders(sim, folderIds))
  const listed =
    gone.size > 0 && Array.isArray(materialIds) && materialIds.length === 0
      ? []
      : idListOf(materialIds, 'materialIds').map((id) => live(sim, id))
  const inGone = sim.state.data.materials.filter(
    (m) => m.deleted === undefined && foldersOf(m).some((f) => gone.has(f)),
  )
  const recycled = [...new Set([...listed, ...inGone.filter((m) => foldersOf(m).every((f) => gone.has(f)))])]
  const leaving = inGone.filter((m) => !recycled.includes(m))

  // Callbacks are built before the folders go: parentIds walk the folder tree.
  const callbacks = new Map<Id, Callback>()
  const removedFrom = (m: Material, folderId: Id) => {
    const callback = callbacks.get(folderId) ?? { space: m.space, assets: [] }
    callback.assets.push(identifyingAsset(sim, m, m.ownerUserId, folderId))
    callbacks.set(folderId, callback)
  }
  for (const m of recycled) for (const f of foldersOf(m)) removedFrom(m, f)
  for (const m of leaving) for (const f of foldersOf(m)) if (gone.has(f)) removedFrom(m, f)
  const bySpace = new Map<SpaceKey, Id[]>()
  for (const id of gone) {
    const space = sim.state.folder(id)?.space as SpaceKey
    bySpace.set(space, [...(bySpace.get(space) ?? []), id])
  }

  for (const m of recycled) m.deleted = 'RECYCLE'
  for (const m of leaving) {
    const [first = '0', ...rest] = foldersOf(m).filter((f) => !gone.has(f))
    m.folderId = first
    if (rest.length > 0) m.extraFolderIds = rest
    else delete m.extraFolderIds
  }
  sim.state.data.folders = sim.state.data.folders.filter((f) => !gone.has(f.id))
  sim.state.commit()
  for (const [folderId, { space, assets }] of callbacks)
    emitter.folderCallback(folderId, space, 'DELETE', assets)
  return { recycled, folderIds: bySpace }
}

/** The folders a batch deletes: those named and every folder below them. */
function deletedFolders(sim: SimContext, folderIds: unknown): Id[] {
  if (folderIds === undefined || folderIds === null) return []
  const named = idListOf(folderIds, 'folderIds')
  for (const id of named) {
    if (id === '0') throw new SimError('bad_request', 'folderIds: the root folder (0) cannot be deleted')
    if (!sim.state.folder(id)) throw new SimError('not_found', `Folder not found: ${id}`)
  }
  return [...new Set(named.flatMap((id) => subtreeOf(sim, id)))]
}
