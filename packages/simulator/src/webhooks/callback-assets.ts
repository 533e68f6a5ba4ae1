import type { SimContext } from '../model/context.ts'
import type { Id, Material } from '../model/state.ts'
import { folderPath } from './material-lookup.ts'

/** source of MaterialCallbackDTO: 1 web page, 2 upload, 3 copy. Every simulated asset was uploaded. */
const SOURCE_UPLOAD = 2

/** The original file name: the saved name plus its extension. */
export function fileName(m: Material): string {
  return m.extension ? `${m.name}.${m.extension}` : m.name
}

/** Bytes, or KB rounded up under the `callbackSizeUnit: 'KB'` quirk (the field table's unit). */
function sizeOf(sim: SimContext, bytes: number): number {
  return sim.quirks.callbackSizeUnit === 'KB' ? Math.ceil(bytes / 1024) : bytes
}

/**
 * A folder-callback asset (`MaterialCallbackDTO` in spec/openapi.yaml) for ADD and UPDATE, as seen from `folderId` (an asset
 * may be in several folders; parentIds lead to the one called back). Ids are bigint (raw JSON
 * integers), userId and createUser strings, as in the live sample; fields without a value are
 * null. `size` is in bytes unless the KB quirk is on (see docs/webhook-variants.md).
 */
export function callbackAsset(
  sim: SimContext,
  m: Material,
  userId: Id,
  downloadUrl: string | null,
  folderId: Id = m.folderId,
) {
  return {
    id: BigInt(m.id),
    parentIds: folderPath(sim, folderId).map((id) => BigInt(id)),
    userId,
    name: fileName(m),
    downloadUrl,
    source: SOURCE_UPLOAD,
    link: m.link ?? null,
    extension: m.extension,
    duration: null,
    size: sizeOf(sim, m.size),
    width: m.width ?? null,
    height: m.height ?? null,
    description: m.description ?? null,
    score: m.score ?? null,
    createUser: m.createUserId,
  }
}

/** For DELETE: "an asset may carry only identifying fields" (spec: `MaterialCallbackAsset`). */
export function identifyingAsset(sim: SimContext, m: Material, userId: Id, folderId: Id = m.folderId) {
  return {
    id: BigInt(m.id),
    parentIds: folderPath(sim, folderId).map((id) => BigInt(id)),
    userId,
  }
}
