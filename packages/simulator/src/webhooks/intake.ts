import type { SavedMaterial, SimContext } from '../model/context.ts'
import type { Id } from '../model/state.ts'
import { callbackAsset } from './callback-assets.ts'
import { byFolder, bySpace, type Emitter } from './emitter.ts'

/**
 * What the live service emits when assets arrive: the folder callback (ADD) per folder, then per
 * space MATERIAL_INBOUND_COMPLETED and one MATERIAL_ADDED_TO_FOLDER per target folder. A formal
 * upload carries uploadResults and materialIds; a confirmed pending intake (`pendingIds`, the
 * pending-intake id of each asset) carries pendingInboundIdToMaterialId instead. Returns the
 * eventIds queued.
 */
export function emitIntake(
  sim: SimContext,
  emitter: Emitter,
  materials: SavedMaterial[],
  initiatorUserId: Id,
  pendingIds?: ReadonlyMap<Id, Id>,
): string[] {
  const eventIds: Array<string | undefined> = []
  for (const [folderId, inFolder] of byFolder(materials)) {
    const first = inFolder[0] as SavedMaterial
    const assets = (inFolder as SavedMaterial[]).map((m) =>
      callbackAsset(sim, m, initiatorUserId, m.accessUrl),
    )
    emitter.folderCallback(folderId, first.space, 'ADD', assets)
  }
  for (const [space, inSpace] of bySpace(materials)) {
    const outcome = pendingIds
      ? {
          source: 'PENDING_INBOUND_CONFIRM',
          initiatorUserId: BigInt(initiatorUserId),
          pendingInboundIdToMaterialId: Object.fromEntries(
            inSpace.map((m) => [pendingIds.get(m.id) as Id, BigInt(m.id)]),
          ),
        }
      : {
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
        }
    eventIds.push(emitter.assetEvent(space, 'MATERIAL_INBOUND_COMPLETED', outcome))
    // One event per target folder, so materialIds and folderIds never need pairing.
    for (const [folderId, inFolder] of byFolder(inSpace)) {
      if (folderId === '0') continue
      eventIds.push(
        emitter.assetEvent(space, 'MATERIAL_ADDED_TO_FOLDER', {
          materialIds: inFolder.map((m) => BigInt(m.id)),
          folderIds: [BigInt(folderId)],
        }),
      )
    }
  }
  return eventIds.filter((id): id is string => id !== undefined)
}
