import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { Id, Material, SpaceKey } from '../model/state.ts'

const ID = /^\d{1,19}$/

/**
 * An id given to a change. Strings are the SDK's form; a number is accepted only while it is
 * exact (the control API parses with JSON.parse, which rounds 19-digit ids).
 */
export function idOf(value: unknown, field: string): Id {
  if (typeof value === 'string' && ID.test(value)) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  throw new SimError(
    'bad_request',
    `${field} must be an id (a decimal string; numbers beyond 2^53 lose digits)`,
  )
}

export function idListOf(value: unknown, field: string): Id[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new SimError('bad_request', `${field} must be a non-empty list of ids`)
  return [...new Set(value.map((v) => idOf(v, field)))]
}

/** An asset that exists, recycled or not (permanently deleted ones are gone). */
export function existing(sim: SimContext, value: unknown, field = 'materialId'): Material {
  const id = idOf(value, field)
  const material = sim.state.material(id)
  if (!material || material.deleted === 'PERMANENT')
    throw new SimError('not_found', `Material not found: ${id}`)
  return material
}

/** An asset that can be changed: it exists and is not in the recycle bin. */
export function live(sim: SimContext, value: unknown, field = 'materialId'): Material {
  const material = existing(sim, value, field)
  if (material.deleted === 'RECYCLE')
    throw new SimError('bad_request', `Material ${material.id} is in the recycle bin`)
  return material
}

export function teamIdOf(space: SpaceKey): Id | undefined {
  return space.startsWith('t:') ? space.slice(2) : undefined
}

/** Folder ids from the top of the space down to `folderId` itself; empty for the root (0). */
export function folderPath(sim: SimContext, folderId: Id): Id[] {
  const path: Id[] = []
  let id = folderId
  // The depth bound guards against a hand-written state with a cycle.
  while (id !== '0' && path.length < 256) {
    const folder = sim.state.folder(id)
    if (!folder) break
    path.unshift(folder.id)
    id = folder.parentId
  }
  return path
}

/** Every folder an asset is in: the one it was saved to first ('0' for the root), then the ones it was added to. */
export function foldersOf(m: Material): Id[] {
  return [m.folderId, ...(m.extraFolderIds ?? [])]
}

/** `folderId` and every folder below it, in the state's order. */
export function subtreeOf(sim: SimContext, folderId: Id): Id[] {
  const out = [folderId]
  for (let i = 0; i < out.length; i++) {
    for (const f of sim.state.data.folders) if (f.parentId === out[i]) out.push(f.id)
  }
  return out
}
