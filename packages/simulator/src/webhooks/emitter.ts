import { randomUUID } from 'node:crypto'
import type { SimContext } from '../context.ts'
import { type AssetEventCode, FOLDER_EVENT } from '../open/event-types.ts'
import type { Id, Material, SpaceKey } from '../state.ts'
import { teamIdOf } from './material-lookup.ts'
import type { WebhookSender } from './sender.ts'

export type CallbackType = 'ADD' | 'UPDATE' | 'DELETE'

/** Routes events to subscribers and hands them to the sender. */
export interface Emitter {
  /** An asset event about assets of `space`; its eventId, or undefined when nobody subscribed. */
  assetEvent(space: SpaceKey, eventType: AssetEventCode, payload: Record<string, unknown>): string | undefined
  /** A folder-content callback to every subscription on `folderId` (the root has none). */
  folderCallback(folderId: Id, space: SpaceKey, type: CallbackType, assets: unknown[]): void
}

export function createEmitter(sim: SimContext, sender: WebhookSender): Emitter {
  /** A key receives its team's events, or its user's personal-space events. */
  function scopedTo(apiKey: string, space: SpaceKey): boolean {
    const key = sim.state.data.apiKeys.find((k) => k.key === apiKey)
    if (!key) return false
    const teamId = teamIdOf(space)
    return teamId === undefined ? space === `u:${key.userId}` : key.teamId === teamId
  }

  return {
    assetEvent(space, eventType, payload) {
      // One delivery per address: two keys subscribing the same URL share one event.
      const urls = new Set(
        sim.state.data.eventSubscriptions
          .filter((s) => s.eventType === eventType && scopedTo(s.apiKey, space))
          .map((s) => s.callbackUrl),
      )
      if (urls.size === 0) return undefined
      const eventId = randomUUID()
      const body = { eventId, eventType, eventTime: String(sim.now()), payload }
      for (const url of urls) sender.enqueue({ url, kind: 'asset', eventType, eventId, body })
      return eventId
    },
    folderCallback(folderId, space, type, assets) {
      if (folderId === '0' || assets.length === 0) return
      const urls = new Set(
        sim.state.data.folderSubscriptions
          .filter((s) => s.folderId === folderId && s.eventType === FOLDER_EVENT)
          .map((s) => s.callbackUrl),
      )
      const teamId = teamIdOf(space)
      const body = {
        eventType: FOLDER_EVENT,
        folderId: BigInt(folderId),
        eventTime: String(sim.now()),
        type,
        assets,
        ...(teamId === undefined ? {} : { orgId: BigInt(teamId) }),
      }
      for (const url of urls) sender.enqueue({ url, kind: 'folder', eventType: FOLDER_EVENT, body })
    },
  }
}

/** Materials grouped by a key, in first-seen order. */
export function groupBy(
  materials: readonly Material[],
  key: (m: Material) => string,
): Map<string, Material[]> {
  const groups = new Map<string, Material[]>()
  for (const m of materials) {
    const k = key(m)
    const group = groups.get(k)
    if (group) group.push(m)
    else groups.set(k, [m])
  }
  return groups
}

export const bySpace = (materials: readonly Material[]) =>
  groupBy(materials, (m) => m.space) as Map<SpaceKey, Material[]>
export const byFolder = (materials: readonly Material[]) => groupBy(materials, (m) => m.folderId)
