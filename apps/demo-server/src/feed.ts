import type { FeedEvent } from '@service-sdk/demo-web/api'
import { isKnownEvent, type WebhookEvent } from '@service-sdk/webhooks'

type Listener = (event: FeedEvent) => void

/**
 * The handled callbacks and webhooks, for the page: the last `capacity` kept in memory (a page
 * opened later sees them), each new one pushed to the live streams.
 */
export interface EventFeed {
  push(event: WebhookEvent, context: { key: string; receivedAt: number }): FeedEvent
  /** The kept events, oldest first; only those after `afterSeq` when given. */
  recent(afterSeq?: number): FeedEvent[]
  subscribe(listener: Listener): () => void
  /** End every subscription (shutdown). */
  close(): void
  readonly closed: boolean
  onClose(listener: () => void): () => void
}

export function createEventFeed(capacity: number, now: () => number = Date.now): EventFeed {
  const kept: FeedEvent[] = []
  const listeners = new Set<Listener>()
  const closeListeners = new Set<() => void>()
  const keys = new Set<string>()
  let seq = 0
  let closed = false

  return {
    push(event, context) {
      const entry: FeedEvent = {
        seq: ++seq,
        key: context.key,
        eventType: event.eventType,
        kind: kindOf(event),
        eventTimeMs:
          'eventTimeMs' in event && typeof event.eventTimeMs === 'number' ? event.eventTimeMs : null,
        receivedAt: context.receivedAt,
        handledAt: now(),
        summary: summarize(event),
        event: toPlain(event),
      }
      // A retried handler run (or a redelivery the store let through) is not news to the page.
      if (keys.has(entry.key)) return entry
      keys.add(entry.key)
      kept.push(entry)
      while (kept.length > capacity) keys.delete(kept.shift()!.key)
      for (const listener of listeners) listener(entry)
      return entry
    },
    recent: (afterSeq) => (afterSeq === undefined ? [...kept] : kept.filter((e) => e.seq > afterSeq)),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close() {
      if (closed) return
      closed = true
      listeners.clear()
      for (const listener of closeListeners) listener()
      closeListeners.clear()
    },
    get closed() {
      return closed
    },
    onClose(listener) {
      if (closed) {
        listener()
        return () => {}
      }
      closeListeners.add(listener)
      return () => closeListeners.delete(listener)
    },
  }
}

function kindOf(event: WebhookEvent): FeedEvent['kind'] {
  if (!isKnownEvent(event)) return 'unknown'
  return event.eventType === 'FOLDER_CONTENT_UPDATE' ? 'folder' : 'asset'
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/** One line a person can scan in the feed. */
export function summarize(event: WebhookEvent): string {
  if (!isKnownEvent(event)) return `Unknown event type ${event.eventType}`
  switch (event.eventType) {
    case 'FOLDER_CONTENT_UPDATE': {
      const assets = event.assets ?? []
      const names = assets
        .map((a) =>
          a.name
            ? `${a.name}${a.extension && !a.name.endsWith(`.${a.extension}`) ? `.${a.extension}` : ''}`
            : a.id,
        )
        .slice(0, 3)
      const more = assets.length > 3 ? ` and ${assets.length - 3} more` : ''
      return `${event.type} in folder ${event.folderId}: ${names.join(', ')}${more}`
    }
    case 'MATERIAL_INBOUND_COMPLETED': {
      const ids = event.payload.materialIds ?? []
      return `Intake completed (${event.payload.source ?? 'unknown source'}): ${count(ids.length, 'asset')}`
    }
    case 'MATERIAL_ADDED_TO_FOLDER': {
      const ids = event.payload.materialIds ?? []
      const folders = event.payload.folderIds ?? []
      return `${count(ids.length, 'asset')} added to folder ${folders.join(', ')}`
    }
    case 'MATERIAL_METADATA_UPDATED':
      return `Metadata changed (${event.payload.changeType ?? 'unknown'}) on ${count(event.payload.materialIds?.length ?? 0, 'asset')}`
    case 'MATERIAL_VERSION_CHANGED':
      return `Version ${event.payload.action ?? 'change'}: cover ${event.payload.coverMaterialId ?? '?'}, new ${event.payload.newMaterialId ?? '?'}`
    case 'MATERIAL_DELETED':
      return `${count(event.payload.materialIds?.length ?? 0, 'asset')} deleted (${event.payload.deleteAction ?? 'unknown'})`
  }
  return (event as { eventType: string }).eventType
}

/** JSON-safe (a bigint, should one appear, becomes its decimal string). */
function toPlain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v)))
}
