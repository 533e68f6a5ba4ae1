import type { SimContext } from '../context.ts'
import { SimError } from '../sim-error.ts'
import type { Id, SpaceKey } from '../state.ts'

const ID = /^\d{1,19}$/

/** A list of ids from a request body (already strings: the body was parsed losslessly). */
export function parseIdList(value: unknown, field: string): Id[] {
  if (!Array.isArray(value) || value.length === 0) throw new SimError('bad_request', `${field} must be a non-empty list of ids`)
  return value.map((v) => parseId(v, field))
}

export function parseId(value: unknown, field: string): Id {
  if (typeof value === 'string' && ID.test(value)) return value
  throw new SimError('bad_request', `${field} must be an integer id`)
}

/** The spaces a user can see: their personal space and every team they belong to. */
export function spacesOf(sim: SimContext, userId: Id): SpaceKey[] {
  return [`u:${userId}`, ...sim.state.data.memberships.filter((m) => m.userId === userId).map((m) => `t:${m.teamId}` as const)]
}

export function folderVisibleTo(sim: SimContext, folderId: Id, userId: Id): boolean {
  const folder = sim.state.folder(folderId)
  return folder !== undefined && spacesOf(sim, userId).includes(folder.space)
}
