import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { Id, Material } from '../model/state.ts'

/**
 * Version lines in the state: every member (the cover included) has `coverId` set to the
 * cover's id and a `version` number; an asset outside any line has neither.
 */

/** A MATERIAL_VERSION_CHANGED payload (spec: `MaterialVersionChangedPayload`). */
export type VersionPayload = Record<string, unknown>

function members(sim: SimContext, coverId: Id): Material[] {
  return sim.state.data.materials.filter((m) => m.coverId === coverId && m.deleted === undefined)
}

function newest(line: Material[]): Material | undefined {
  return line.reduce<Material | undefined>(
    (a, m) => (a === undefined || (m.version ?? 0) > (a.version ?? 0) ? m : a),
    undefined,
  )
}

/** `added` joins `cover`'s line as its newest version; the cover stays the cover. */
export function addVersion(sim: SimContext, cover: Material, added: Material): VersionPayload {
  if (cover.coverId !== undefined && cover.coverId !== cover.id) {
    throw new SimError(
      'bad_request',
      `Material ${cover.id} is a version of ${cover.coverId}, not the cover of its line`,
    )
  }
  if (added.id === cover.id) throw new SimError('bad_request', 'An asset cannot be a version of itself')
  if (added.coverId !== undefined)
    throw new SimError('bad_request', `Material ${added.id} already belongs to a version line`)
  if (added.space !== cover.space)
    throw new SimError('bad_request', 'Versions of one line must be in the same space')
  if (cover.coverId === undefined) {
    cover.coverId = cover.id
    cover.version = 1
  }
  const version = (newest(members(sim, cover.id))?.version ?? 1) + 1
  added.coverId = cover.id
  added.version = version
  // A line lives where its cover is.
  added.folderId = cover.folderId
  return { coverMaterialId: BigInt(cover.id), newMaterialId: BigInt(added.id), action: 'ADD', version }
}

/** `m` becomes the cover of its line; coverMaterialId is the previous cover. */
export function setCover(sim: SimContext, m: Material): VersionPayload {
  const previous = m.coverId
  if (previous === undefined) throw new SimError('bad_request', `Material ${m.id} is not in a version line`)
  if (previous === m.id)
    throw new SimError('bad_request', `Material ${m.id} is already the cover of its line`)
  for (const member of members(sim, previous)) member.coverId = m.id
  return {
    coverMaterialId: BigInt(previous),
    newMaterialId: BigInt(m.id),
    action: 'SET_COVER',
    ...(m.version === undefined ? {} : { version: m.version }),
  }
}

/**
 * `m` leaves its line: back into the folder as a standalone asset (ADD) or to the recycle bin
 * (DELETE). Per the spec (`MaterialVersionChangedPayload`), coverMaterialId is the removed version's id and newMaterialId the
 * newest asset of the line after removal; a line left with one asset is dissolved.
 */
export function removeVersion(sim: SimContext, m: Material, removeType: unknown): VersionPayload {
  if (removeType !== 'ADD' && removeType !== 'DELETE')
    throw new SimError('bad_request', 'removeType must be ADD or DELETE')
  const coverId = m.coverId
  if (coverId === undefined) throw new SimError('bad_request', `Material ${m.id} is not in a version line`)
  const rest = members(sim, coverId).filter((other) => other !== m)
  const latest = newest(rest)
  if (!latest) throw new SimError('bad_request', `Material ${m.id} is the only version of its line`)
  const { version } = m
  delete m.coverId
  delete m.version
  if (removeType === 'DELETE') m.deleted = 'RECYCLE'
  // Removing the cover hands the line to its newest version.
  if (coverId === m.id) for (const other of rest) other.coverId = latest.id
  const dissolved = rest.length === 1
  if (dissolved) {
    delete latest.coverId
    delete latest.version
  }
  return {
    coverMaterialId: BigInt(m.id),
    newMaterialId: BigInt(latest.id),
    action: 'REMOVE',
    ...(version === undefined ? {} : { version }),
    removeType,
    versionGroupDissolved: dissolved,
  }
}

/**
 * `added` (a new upload) joins `cover`'s line as its newest version and replaces the cover in
 * the same step; coverMaterialId is the replaced cover.
 */
export function replaceCover(sim: SimContext, cover: Material, added: Material): VersionPayload {
  const { version } = addVersion(sim, cover, added)
  for (const member of members(sim, cover.id)) member.coverId = added.id
  return {
    coverMaterialId: BigInt(cover.id),
    newMaterialId: BigInt(added.id),
    action: 'REPLACE_COVER_ON_UPLOAD',
    version,
  }
}
