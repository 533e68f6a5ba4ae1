import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { Id, SpaceKey } from '../model/state.ts'

const MAX_ID = 2n ** 63n - 1n

/** A list of ids from a request body (already strings: the body was parsed losslessly). */
export function parseIdList(value: unknown, field: string): Id[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new SimError('bad_request', `${field} must be a non-empty list of ids`)
  return value.map((v) => parseId(v, field))
}

/** An id from a request body: a JSON integer (Java long), never a string. */
export function parseId(value: unknown, field: string): Id {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  if (typeof value === 'bigint' && value >= 0n && value <= MAX_ID) return String(value)
  throw new SimError('bad_request', `${field} must be an integer id (a JSON number)`)
}

/** The spaces a user can see: their personal space and every team they belong to. */
export function spacesOf(sim: SimContext, userId: Id): SpaceKey[] {
  return [
    `u:${userId}`,
    ...sim.state.data.memberships.filter((m) => m.userId === userId).map((m) => `t:${m.teamId}` as const),
  ]
}

/** Whether a user may subscribe to a folder. Folder 0 is the root of every space they can see. */
export function folderVisibleTo(sim: SimContext, folderId: Id, userId: Id): boolean {
  if (folderId === '0') return true
  const folder = sim.state.folder(folderId)
  return folder !== undefined && spacesOf(sim, userId).includes(folder.space)
}
