import { randomUUID } from 'node:crypto'
import type { SimContext } from '../model/context.ts'
import type { Id, Material, SpaceKey } from '../model/state.ts'
import type { AssetEventCode } from '../open/event-types.ts'
import { FOLDER_CONTENT_UPDATE } from '../open/event-types.ts'
import { driftBody, driftChance } from './drift.ts'
import { teamIdOf } from './material-lookup.ts'
import type { WebhookSender } from './sender/sender.ts'

export type CallbackType = 'ADD' | 'UPDATE' | 'DELETE'

/** Routes events to subscribers and hands them to the sender. */
export interface Emitter {
  /** An asset event about assets of `space`; its eventId, or undefined when nobody subscribed. */
  assetEvent(space: SpaceKey, eventType: AssetEventCode, payload: Record<string, unknown>): string | undefined
  /**
   * A folder-content callback to every subscription on `folderId`. Folder 0 is the root of
   * every space: its subscribers are those whose API key is scoped to `space`.
   */
  folderCallback(folderId: Id, space: SpaceKey, type: CallbackType, assets: unknown[]): void
}

/** `random` draws the drift quirk's variations (seeded by faultSeed, so a run replays). */
export function createEmitter(sim: SimContext, sender: WebhookSender, random: () => number): Emitter {
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
      const chance = driftChance(sim.quirks.drift, random)
      // A drifted eventId is a 19-digit JSON number; from the id sequence, so it stays unique
      // across restarts of a simulator that keeps its state.
      const eventId = chance() ? sim.state.nextId() : randomUUID()
      // The event's object under `payload`, or the name the quirk gives it (spec: AssetEvent).
      const field = sim.quirks.assetEventObject ?? 'payload'
      const body = driftBody(
        eventType,
        {
          eventId: /^\d+$/.test(eventId) ? BigInt(eventId) : eventId,
          eventType,
          eventTime: String(sim.now()),
          [field]: payload,
        },
        chance,
      )
      for (const url of urls) sender.enqueue({ url, kind: 'asset', eventType, eventId, body })
      return eventId
    },
    folderCallback(folderId, space, type, assets) {
      if (assets.length === 0) return
      const urls = new Set(
        sim.state.data.folderSubscriptions
          .filter(
            (s) =>
              s.folderId === folderId &&
              s.eventType === FOLDER_CONTENT_UPDATE &&
              (folderId !== '0' || scopedTo(s.apiKey, space)),
          )
          .map((s) => s.callbackUrl),
      )
      if (urls.size === 0) return
      const teamId = teamIdOf(space)
      const body = {
        eventType: FOLDER_CONTENT_UPDATE,
        folderId: BigInt(folderId),
        eventTime: String(sim.now()),
        type,
        assets,
        ...(teamId === undefined ? {} : { orgId: BigInt(teamId) }),
      }
      const drifted = driftBody(FOLDER_CONTENT_UPDATE, body, driftChance(sim.quirks.drift, random))
      for (const url of urls)
        sender.enqueue({ url, kind: 'folder', eventType: FOLDER_CONTENT_UPDATE, body: drifted })
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
