import { SimError } from '../http/sim-error.ts'
import type { IntakeTarget, PendingIntakeItem, SavedMaterial, SimContext } from '../model/context.ts'
import { BUCKET, type Id, type Material, type SpaceKey } from '../model/state.ts'
import { accessUrlOf } from '../open/materials.ts'
import type { Emitter } from './emitter.ts'
import { emitIntake } from './intake.ts'
import { idOf } from './material-lookup.ts'

/**
 * A pending intake (files that arrived and waited for someone to confirm them) is confirmed:
 * each file gets a pending-intake id, its bytes are stored, and it becomes an asset of the
 * target space and folder. Emits what a confirmed intake does (see intake.ts). Checks
 * everything before storing anything.
 */
export async function confirmPendingIntake(
  sim: SimContext,
  emitter: Emitter,
  items: unknown,
  target: IntakeTarget = {},
): Promise<string[]> {
  const files = checkItems(items)
  const userId = target.userId === undefined ? callerOf(sim) : idOf(target.userId, 'userId')
  if (!sim.state.user(userId)) throw new SimError('not_found', `User not found: ${userId}`)
  const space = spaceOf(sim, userId, target.orgId)
  const folderId = target.folderId === undefined ? '0' : idOf(target.folderId, 'folderId')
  if (folderId !== '0' && sim.state.folder(folderId)?.space !== space)
    throw new SimError('not_found', `folderId: folder ${folderId} not found in this space`)

  const stored = []
  for (const file of files) {
    const pendingId = sim.state.nextId()
    const key = `pending/${pendingId}/${file.extension ? `file.${file.extension}` : 'file'}`
    const bytes = new TextEncoder().encode(file.content ?? file.name)
    await sim.store.put({ bucket: BUCKET, key, contentType: 'application/octet-stream', body: once(bytes) })
    stored.push({ file, pendingId, key, size: bytes.length })
  }
  // Every file is stored: the assets appear at once.
  const pendingIds = new Map<Id, Id>()
  const saved = stored.map(({ file, pendingId, key, size }): SavedMaterial => {
    const material: Material = {
      id: sim.state.nextId(),
      key,
      bucket: BUCKET,
      name: file.name,
      extension: file.extension,
      size,
      folderId,
      space,
      ownerUserId: userId,
      createUserId: userId,
      createdAt: sim.now(),
    }
    sim.state.data.materials.push(material)
    pendingIds.set(material.id, pendingId)
    return { ...material, accessUrl: accessUrlOf(sim.publicOrigin(), material) }
  })
  sim.state.commit()
  return emitIntake(sim, emitter, saved, userId, pendingIds)
}

function checkItems(items: unknown): PendingIntakeItem[] {
  if (!Array.isArray(items) || items.length === 0)
    throw new SimError('bad_request', 'items must be a non-empty list of { name, extension, content? }')
  return items.map((item: unknown, i) => {
    const { name, extension, content } = (item ?? {}) as Record<string, unknown>
    if (typeof name !== 'string' || name === '')
      throw new SimError('bad_request', `items[${i}].name is required`)
    if (typeof extension !== 'string') throw new SimError('bad_request', `items[${i}].extension is required`)
    if (content !== undefined && typeof content !== 'string')
      throw new SimError('bad_request', `items[${i}].content must be a string`)
    return { name, extension, ...(content === undefined ? {} : { content }) }
  })
}

/** The seed's caller: the user of the open token. */
function callerOf(sim: SimContext): Id {
  const caller = sim.state.data.openTokens[0]?.userId
  if (!caller) throw new SimError('bad_request', 'userId is required (the state has no caller)')
  return caller
}

function spaceOf(sim: SimContext, userId: Id, orgId: unknown): SpaceKey {
  if (orgId === undefined || orgId === null) return `u:${userId}`
  const teamId = idOf(orgId, 'orgId')
  if (!sim.state.team(teamId) || !sim.state.membership(teamId, userId))
    throw new SimError('bad_request', `User ${userId} is not a member of team ${teamId}`)
  return `t:${teamId}`
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes
}
