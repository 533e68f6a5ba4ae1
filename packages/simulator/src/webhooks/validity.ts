import type { MaterialChanges, SimContext } from '../model/context.ts'

const DAY = 24 * 3_600_000
/** The simulator's model of validity statuses (the spec shows 1 Valid and 2 Expiring soon). */
const EXPIRING_WITHIN_DAYS = 7

/** What an asset's validity says at `time`: the status and whole days left (rounded up). */
export function validityAt(endTime: number, time: number) {
  const daysToExpire = Math.max(0, Math.ceil((endTime - time) / DAY))
  if (time >= endTime) return { validityStatus: 3, validityStatusName: 'Expired', daysToExpire: 0 }
  return daysToExpire <= EXPIRING_WITHIN_DAYS
    ? { validityStatus: 2, validityStatusName: 'Expiring soon', daysToExpire }
    : { validityStatus: 1, validityStatusName: 'Valid', daysToExpire }
}

/**
 * The clock moved from `from` to `to`: every asset with a limited validity whose days left (or
 * status) changed gets a MATERIAL_METADATA_UPDATED VALIDITY event saying where it stands now,
 * one per asset and move (an advance of 30 days sends one, with `daysToExpire` 30 lower, not 30).
 */
export function passValidity(sim: SimContext, changes: MaterialChanges, from: number, to: number): void {
  for (const m of sim.state.data.materials) {
    if (!m.validity || m.deleted) continue
    const before = validityAt(m.validity.endTime, from)
    const after = validityAt(m.validity.endTime, to)
    if (before.daysToExpire === after.daysToExpire && before.validityStatus === after.validityStatus) continue
    changes.updateMetadata(m.id, {
      changeType: 'VALIDITY',
      ...after,
      ...(m.validity.startTime === undefined ? {} : { startTime: m.validity.startTime }),
      endTime: m.validity.endTime,
      isPermanent: false,
    })
  }
}
