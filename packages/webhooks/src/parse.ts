import {
  ASSET_EVENT_TYPES,
  folderContentCallbackSchema,
  materialAddedToFolderEventSchema,
  materialDeletedEventSchema,
  materialInboundCompletedEventSchema,
  materialMetadataUpdatedEventSchema,
  materialVersionChangedEventSchema,
} from '@service-sdk/core'
import { decodeBody } from './decode.ts'
import { WebhookError } from './errors.ts'
import { eventTimeMs } from './event-time.ts'
import type { KnownEventType, KnownWebhookEvent, WebhookEvent } from './events.ts'

export const FOLDER_CONTENT_UPDATE = 'FOLDER_CONTENT_UPDATE'

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: Issue[] } }
}
interface Issue {
  path: PropertyKey[]
  message: string
}

// Core's tolerant wire schemas (loose objects: unknown fields kept; nullable where the interface allows).
const SCHEMAS: Record<KnownEventType, Schema> = {
  FOLDER_CONTENT_UPDATE: folderContentCallbackSchema,
  MATERIAL_INBOUND_COMPLETED: materialInboundCompletedEventSchema,
  MATERIAL_ADDED_TO_FOLDER: materialAddedToFolderEventSchema,
  MATERIAL_METADATA_UPDATED: materialMetadataUpdatedEventSchema,
  MATERIAL_VERSION_CHANGED: materialVersionChangedEventSchema,
  MATERIAL_DELETED: materialDeletedEventSchema,
} as Record<KnownEventType, Schema>

const KNOWN: ReadonlySet<string> = new Set<string>([FOLDER_CONTENT_UPDATE, ...ASSET_EVENT_TYPES])

/** Whether an event is one of the six this SDK types (`switch (event.eventType)` then narrows). */
export function isKnownEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return KNOWN.has(event.eventType)
}

export function isKnownEventType(eventType: string): eventType is KnownEventType {
  return KNOWN.has(eventType)
}

/**
 * The event type of a decoded body. The folder callback's eventType is documented as a default,
 * so a body shaped like one (folderId and assets) without it is taken as one.
 */
export function eventTypeOf(body: Record<string, unknown>): string {
  const type = body.eventType
  if (typeof type === 'string' && type !== '') return type
  if (type === undefined || type === null) {
    if ('folderId' in body && Array.isArray(body.assets)) return FOLDER_CONTENT_UPDATE
    throw invalid('The body has no eventType (and is not shaped like a folder-content callback).')
  }
  throw invalid('The body has an eventType that is not a string.')
}

/**
 * Turn a raw callback or webhook body into a typed event. Ids (and any integer beyond 2^53)
 * become exact decimal strings; unknown fields are kept and absent fields stay absent; `eventTime`
 * is kept as sent and added as `eventTimeMs`. An unknown eventType gives an `UnknownWebhookEvent`.
 *
 * @throws WebhookError `malformed_json` or `invalid_payload` (with the offending fields).
 */
export function parseWebhook(body: string | Uint8Array | ArrayBuffer): WebhookEvent {
  return toEvent(decodeBody(body))
}

/** The typed event of an already decoded body (see parseWebhook). */
export function toEvent(body: Record<string, unknown>): WebhookEvent {
  const eventType = eventTypeOf(body)
  const input: Record<string, unknown> = { ...body, eventType }
  if (typeof input.eventTime === 'number') input.eventTime = String(input.eventTime)
  if (typeof input.eventId === 'number') input.eventId = String(input.eventId)
  const ms = eventTimeMs(input.eventTime)

  const schema = KNOWN.has(eventType) ? SCHEMAS[eventType as KnownEventType] : undefined
  if (!schema) {
    if (ms !== undefined) input.eventTimeMs = ms
    return input as WebhookEvent
  }
  if (ms === undefined) {
    throw invalid(
      `${eventType}: eventTime ${JSON.stringify(input.eventTime)} is neither epoch milliseconds nor ISO 8601.`,
    )
  }
  const result = schema.safeParse(input)
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`)
    throw invalid(`${eventType}: ${issues.join('; ')}${result.error.issues.length > 5 ? '; …' : ''}`)
  }
  return { ...(result.data as object), eventTimeMs: ms } as WebhookEvent
}

function invalid(message: string): WebhookError {
  return new WebhookError(`Invalid webhook body. ${message}`, { code: 'invalid_payload', status: 400 })
}
