import { SimError } from '../http/sim-error.ts'
import type { MaterialChanges, SimContext } from '../model/context.ts'
import type { Id, Material, SpaceKey } from '../model/state.ts'
import { deletedSnapshot } from './asset-snapshot.ts'
import { callbackAsset } from './callback-assets.ts'
import { bySpace, type Emitter } from './emitter.ts'
import { deleteBatch } from './folder-deletion.ts'
import { existing, foldersOf, idListOf, idOf, live } from './material-lookup.ts'
import { applyMetadataChange } from './metadata-change.ts'
import { confirmPendingIntake } from './pending-intake.ts'
import { addVersion, removeVersion, replaceCover, setCover } from './version-changes.ts'

const sent = (...eventIds: Array<string | undefined>) =>
  eventIds.filter((id): id is string => id !== undefined)

/**
 * Changes made through the control API. Each checks everything before changing anything,
 * commits the state, then emits what the live service would. Changes carry no acting user, so
 * callbacks name the asset's owner as userId.
 */
export function createMaterialChanges(
  sim: SimContext,
  emitter: Emitter,
  downloadUrlOf: (m: Material) => string | null,
): MaterialChanges {
  const fullAsset = (m: Material, folderId: Id) =>
    callbackAsset(sim, m, m.ownerUserId, downloadUrlOf(m), folderId)

  return {
    updateMetadata(materialId, change) {
      const m = live(sim, materialId)
      const { previousId, item } = applyMetadataChange(sim, m, change)
      sim.state.commit()
      for (const folderId of foldersOf(m))
        emitter.folderCallback(folderId, m.space, 'UPDATE', [fullAsset(m, folderId)])
      return sent(
        emitter.assetEvent(m.space, 'MATERIAL_METADATA_UPDATED', {
          changeType: change.changeType,
          materialIds: [BigInt(previousId)],
          materials: [item],
        }),
      )
    },

    addVersion(coverMaterialId, newMaterialId) {
      const cover = live(sim, coverMaterialId, 'coverMaterialId')
      const added = live(sim, newMaterialId, 'newMaterialId')
      const payload = addVersion(sim, cover, added)
      sim.state.commit()
      return sent(emitter.assetEvent(cover.space, 'MATERIAL_VERSION_CHANGED', payload))
    },

    replaceCoverOnUpload(coverMaterialId, newMaterialId) {
      const cover = live(sim, coverMaterialId, 'coverMaterialId')
      const added = live(sim, newMaterialId, 'newMaterialId')
      const payload = replaceCover(sim, cover, added)
      sim.state.commit()
      return sent(emitter.assetEvent(cover.space, 'MATERIAL_VERSION_CHANGED', payload))
    },

    confirmPendingIntake: (items, target) => confirmPendingIntake(sim, emitter, items, target),

    setCover(materialId) {
      const m = live(sim, materialId)
      const payload = setCover(sim, m)
      sim.state.commit()
      return sent(emitter.assetEvent(m.space, 'MATERIAL_VERSION_CHANGED', payload))
    },

    removeVersion(materialId, removeType) {
      const m = live(sim, materialId)
      const payload = removeVersion(sim, m, removeType)
      sim.state.commit()
      return sent(emitter.assetEvent(m.space, 'MATERIAL_VERSION_CHANGED', payload))
    },

    addToFolder: (materialIds, folderId) => addToFolder(sim, emitter, fullAsset, materialIds, folderId),

    delete(materialIds, options = {}) {
      const { recycled, folderIds } = deleteBatch(sim, emitter, materialIds, options.folderIds)
      return emitDeleted(emitter, recycled, 'RECYCLE', folderIds)
    },

    purge(materialIds) {
      const materials = idListOf(materialIds, 'materialIds').map((id) => {
        const m = existing(sim, id)
        if (m.deleted !== 'RECYCLE')
          throw new SimError('bad_request', `Material ${id} is not in the recycle bin: delete it first`)
        return m
      })
      for (const m of materials) m.deleted = 'PERMANENT'
      sim.state.commit()
      return emitDeleted(emitter, materials, 'PERMANENT')
    },
  }
}

/**
 * The snapshot fields are untouched by deletion, so this may run after the state changed.
 * `folderIds`: the folders deleted in the same batch, per space.
 */
function emitDeleted(
  emitter: Emitter,
  materials: Material[],
  deleteAction: 'RECYCLE' | 'PERMANENT',
  folderIds: ReadonlyMap<SpaceKey, Id[]> = new Map(),
): string[] {
  return [...bySpace(materials)]
    .map(([space, inSpace]) => {
      const folders = folderIds.get(space) ?? []
      return emitter.assetEvent(space, 'MATERIAL_DELETED', {
        materialIds: inSpace.map((m) => BigInt(m.id)),
        deleteAction,
        ...(folders.length === 0 ? {} : { folderIds: folders.map((id) => BigInt(id)) }),
        materials: inSpace.map(deletedSnapshot),
      })
    })
    .filter((id): id is string => id !== undefined)
}

/** Relates assets to one more folder (each stays where it was): a folder ADD callback and MATERIAL_ADDED_TO_FOLDER. */
function addToFolder(
  sim: SimContext,
  emitter: Emitter,
  fullAsset: (m: Material, folderId: Id) => ReturnType<typeof callbackAsset>,
  materialIds: unknown,
  folderId: unknown,
): string[] {
  const target = idOf(folderId, 'folderId')
  if (target === '0') throw new SimError('bad_request', 'folderId must name a folder (the root is not one)')
  const folder = sim.state.folder(target)
  if (!folder) throw new SimError('not_found', `Folder not found: ${target}`)
  const materials = idListOf(materialIds, 'materialIds').map((id) => live(sim, id))
  for (const m of materials) {
    if (m.space !== folder.space)
      throw new SimError('bad_request', `Material ${m.id} is not in the space of folder ${target}`)
  }
  // Adding relates the asset to one more folder (it stays where it was); "an existing
  // relation is not pushed again".
  const added = materials.filter((m) => !foldersOf(m).includes(target))
  if (added.length === 0) return []
  for (const m of added) m.extraFolderIds = [...(m.extraFolderIds ?? []), target]
  sim.state.commit()
  emitter.folderCallback(
    target,
    folder.space,
    'ADD',
    added.map((m) => fullAsset(m, target)),
  )
  const covers = [...new Set(added.map((m) => m.coverId ?? m.id))]
  return sent(
    emitter.assetEvent(folder.space, 'MATERIAL_ADDED_TO_FOLDER', {
      materialIds: covers.map((id) => BigInt(id)),
      folderIds: [BigInt(target)],
    }),
  )
}
