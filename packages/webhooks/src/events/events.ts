import type { AssetEvent, FolderContentCallback } from '@service-sdk/core'

/** What the receiver adds to every event it parses. */
export interface EventTimeFields {
  /** The service's `eventTime`, as sent (epoch milliseconds or ISO 8601, always a string). */
  eventTime: string
  /**
   * `eventTime` as epoch milliseconds, whichever form it came in. Delivery order is not
   * guaranteed: compare this to tell which of two changes to the same asset is newer. When the
   * body has no usable eventTime: the time the receiver stored the event (and, for an asset
   * event, a warning says so).
   */
  eventTimeMs: number
}

/**
 * The folder-content callback. It has no eventId: its key is a content hash. Its
 * `eventTime` may be absent; `assets` may be null.
 */
export type FolderContentEvent = Omit<FolderContentCallback, 'eventTime'> &
  Partial<Pick<EventTimeFields, 'eventTime'>> &
  Pick<EventTimeFields, 'eventTimeMs'>

/** An event with its `eventTime` read: the raw text and the epoch milliseconds (see {@link EventTimeFields}). */
export type WithTime<E> = E extends unknown ? Omit<E, 'eventTime'> & EventTimeFields : never

/** The five asset events (spec/openapi.yaml, `webhooks`), their `payload` typed per eventType (and changeType). */
export type AssetWebhookEvent = WithTime<AssetEvent>

/** An event whose eventType this SDK knows; `switch (event.eventType)` narrows it. */
export type KnownWebhookEvent = FolderContentEvent | AssetWebhookEvent

export type KnownEventType = KnownWebhookEvent['eventType']

/** The event type delivered to `receiver.on(type, ...)`. */
export type WebhookEventOf<T extends KnownEventType> = Extract<KnownWebhookEvent, { eventType: T }>

/**
 * An event with an eventType this SDK does not know (the service added one): kept whole, not
 * rejected. Narrow a `WebhookEvent` to the known ones with `isKnownEvent`.
 */
export interface UnknownWebhookEvent {
  eventType: string
  eventId?: string
  eventTime?: string
  eventTimeMs?: number
  [field: string]: unknown
}

export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent
