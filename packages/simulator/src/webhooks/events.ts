import type { MaterialChanges, SimContext, SimEvents } from '../context.ts'
import { accessUrlOf, type SavedMaterial } from '../open/materials.ts'
import type { Id, Material } from '../state.ts'
import { callbackAsset } from './callback-assets.ts'
import { createMaterialChanges } from './changes.ts'
import { byFolder, bySpace, createEmitter } from './emitter.ts'
import type { WebhookSender } from './sender.ts'

/**
 * The callbacks and asset events the live service emits: on upload (`materialsSaved`) and on the
 * changes the control API makes (`changes`).
 */
export function createEvents(
  sim: SimContext,
  sender: WebhookSender,
): SimEvents & { changes: MaterialChanges } {
  const emitter = createEmitter(sim, sender)
  const downloadUrlOf = (m: Material) => accessUrlOf(sim.publicOrigin(), m)

  return {
    materialsSaved(materials: SavedMaterial[], initiatorUserId: Id) {
      // Notification only: a failure here must not fail the save that already happened.
      try {
        saved(materials, initiatorUserId)
      } catch (error) {
        sim.log('could not emit the events of a material-save', error)
      }
    },
    changes: createMaterialChanges(sim, emitter, downloadUrlOf),
  }

  function saved(materials: SavedMaterial[], initiatorUserId: Id): void {
    for (const [folderId, inFolder] of byFolder(materials)) {
      const first = inFolder[0] as SavedMaterial
      const assets = (inFolder as SavedMaterial[]).map((m) =>
        callbackAsset(sim, m, initiatorUserId, m.accessUrl),
      )
      emitter.folderCallback(folderId, first.space, 'ADD', assets)
    }
    for (const [space, inSpace] of bySpace(materials)) {
      emitter.assetEvent(space, 'MATERIAL_INBOUND_COMPLETED', {
        source: 'UPLOAD_ASSETS',
        initiatorUserId: BigInt(initiatorUserId),
        uploadResults: inSpace.map((m) => ({
          id: BigInt(m.id),
          name: m.name,
          extension: m.extension,
          size: m.size,
          ...(m.width === undefined ? {} : { width: m.width }),
          ...(m.height === undefined ? {} : { height: m.height }),
          uploadStatus: 'SUCCESS',
        })),
        materialIds: inSpace.map((m) => BigInt(m.id)),
      })
      // One event per target folder, so materialIds and folderIds never need pairing.
      for (const [folderId, inFolder] of byFolder(inSpace)) {
        if (folderId === '0') continue
        emitter.assetEvent(space, 'MATERIAL_ADDED_TO_FOLDER', {
          materialIds: inFolder.map((m) => BigInt(m.id)),
          folderIds: [BigInt(folderId)],
        })
      }
    }
  }
}
