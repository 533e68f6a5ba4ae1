import {
  ASSET_EVENT_TYPES,
  FOLDER_CONTENT_UPDATE,
  folderContentCallbackSchema,
  materialAddedToFolderEventSchema,
  materialDeletedEventSchema,
  materialInboundCompletedEventSchema,
  materialMetadataUpdatedEventSchema,
  materialVersionChangedEventSchema,
} from '@service-sdk/core/schemas'
import { WebhookError } from '../errors.ts'
import { decodeBody } from './decode.ts'
import { eventObjectField } from './event-object.ts'
import { eventTimeMs } from './event-time.ts'
import type { KnownEventType, KnownWebhookEvent, WebhookEvent } from './events.ts'
import { compileReader } from './fast-read/compile.ts'
import { MISMATCH, type Reader } from './fast-read/readers.ts'
import { hideProtoKeys, restoreProtoKeys } from './proto-keys.ts'
import { type SchemaWarning, unknownValues, valueAt, warning } from './warnings.ts'

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: Issue[] } }
}
interface Issue {
  path: PropertyKey[]
  message: string
}

// Core's tolerant wire schemas (loose objects: unknown fields kept; nullable where the interface allows).
export const SCHEMAS: Record<KnownEventType, Schema> = {
  FOLDER_CONTENT_UPDATE: folderContentCallbackSchema,
  MATERIAL_INBOUND_COMPLETED: materialInboundCompletedEventSchema,
  MATERIAL_ADDED_TO_FOLDER: materialAddedToFolderEventSchema,
  MATERIAL_METADATA_UPDATED: materialMetadataUpdatedEventSchema,
  MATERIAL_VERSION_CHANGED: materialVersionChangedEventSchema,
  MATERIAL_DELETED: materialDeletedEventSchema,
} as Record<KnownEventType, Schema>

/** A fast reader per schema, generated from it (fast-read/compile.ts); zod reads what it declines. */
export const READERS = Object.fromEntries(
  Object.entries(SCHEMAS).map(([eventType, schema]) => [eventType, compileReader(schema).read]),
) as Record<KnownEventType, Reader>

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
 * so a body without one is taken as a folder callback. Any other non-string eventType becomes its
 * JSON text: an event type nobody knows, delivered to `onAny` (readWebhook warns about it).
 */
export function eventTypeOf(body: Record<string, unknown>): string {
  const type = body.eventType
  if (typeof type === 'string' && type !== '') return type
  if (type === undefined || type === null || type === '') return FOLDER_CONTENT_UPDATE
  return JSON.stringify(type)
}

export interface ReadOptions {
  /**
   * Refuse a body that differs from the schema this SDK knows (an unknown enum value, a field of
   * another type) with a `WebhookError` `invalid_payload`, instead of warning. Default false.
   */
  strict?: boolean
  /** `eventTimeMs` when the body has no usable eventTime (epoch ms). Default: now. */
  receivedAt?: number
}

export interface ReadWebhook {
  event: WebhookEvent
  /** Where the body differs from the schema this SDK knows; empty when it does not. */
  warnings: SchemaWarning[]
}

/**
 * Turn a raw callback or webhook body into a typed event. Ids (and any integer beyond 2^53)
 * become exact decimal strings; unknown fields are kept and absent fields stay absent; `eventTime`
 * is kept as sent and added as `eventTimeMs`. An unknown eventType gives an `UnknownWebhookEvent`.
 * A body that differs from the schema this SDK knows is still returned (see readWebhook).
 *
 * @throws WebhookError `malformed_json` or `invalid_payload` when the body is not a JSON object;
 *   with `strict`, `invalid_payload` for any difference from the schema.
 */
export function parseWebhook(
  body: string | Uint8Array | ArrayBuffer,
  options: ReadOptions = {},
): WebhookEvent {
  return readWebhook(decodeBody(body), options).event
}

/**
 * The typed event of a decoded body, and where it differs from the schema this SDK knows. An
 * enum value added by the service is kept (and warned about); a field of another type than
 * documented makes the event be delivered as sent (ids still exact strings), with a warning for
 * each such field: the typed view holds except at the paths the warnings name.
 */
export function readWebhook(body: Record<string, unknown>, options: ReadOptions = {}): ReadWebhook {
  const eventType = eventTypeOf(body)
  const warnings: SchemaWarning[] = []
  if (typeof body.eventType !== 'string' && body.eventType !== undefined && body.eventType !== null) {
    warnings.push(warning(['eventType'], body.eventType, 'a string'))
  }
  const input: Record<string, unknown> = { ...body, eventType }
  movePayload(eventType, input, warnings)
  if (typeof input.eventTime === 'number') input.eventTime = String(input.eventTime)
  if (typeof input.eventId === 'number') input.eventId = String(input.eventId)
  const ms = eventTimeMs(input.eventTime)
  const known = KNOWN.has(eventType)
  if (known && ms === undefined && (input.eventTime !== undefined || eventType !== FOLDER_CONTENT_UPDATE)) {
    warnings.push(
      warning(
        ['eventTime'],
        input.eventTime,
        'epoch milliseconds or ISO 8601 (eventTimeMs is the time the event was received)',
      ),
    )
  }
  const eventTimeMsOrReceived = ms ?? options.receivedAt ?? Date.now()

  let event: WebhookEvent
  if (!known) {
    if (ms !== undefined) input.eventTimeMs = ms
    event = input as WebhookEvent
  } else {
    const data = typedBody(eventType as KnownEventType, input, warnings)
    event = { ...(data ?? input), eventTimeMs: eventTimeMsOrReceived } as WebhookEvent
    const unknown = unknownValues(eventType, event)
    if (unknown.length > 0) {
      const warned = new Set(warnings.map((w) => w.path))
      warnings.push(...unknown.filter((w) => !warned.has(w.path)))
    }
  }
  if (options.strict && warnings.length > 0) throw invalid(`${eventType}: ${describeWarnings(warnings)}`)
  return { event, warnings }
}

/**
 * What the schema of `eventType` makes of `input`, or undefined with its issues added to
 * `warnings`. The reader generated from the schema gives the schema's value for the bodies it
 * recognises; anything else, `__proto__` keys included, goes through zod.
 */
function typedBody(eventType: KnownEventType, input: Record<string, unknown>, warnings: SchemaWarning[]) {
  const read = READERS[eventType](input)
  if (read !== MISMATCH) return read as object
  const hidden = hideProtoKeys(input)
  const result = SCHEMAS[eventType].safeParse(hidden)
  if (result.success) {
    // Nothing hidden (the same object back, as for nearly every body): nothing to name back.
    return hidden === input ? (result.data as object) : restoreProtoKeys(result.data as object)
  }
  for (const issue of result.error.issues)
    warnings.push(warning(issue.path, valueAt(input, issue.path), issue.message))
  return undefined
}

/**
 * An asset event whose object is not under `payload` (see event-object.ts): read as `payload`,
 * with a warning naming the field it came in; the field itself is left as sent.
 */
function movePayload(eventType: string, input: Record<string, unknown>, warnings: SchemaWarning[]): void {
  if (eventType === FOLDER_CONTENT_UPDATE || input.payload !== undefined) return
  const field = eventObjectField(input)
  if (field === undefined) return
  input.payload = input[field]
  warnings.push({
    path: field,
    value: '(the event object)',
    message: `the event's object came as "${field}", not "payload": it is read as payload`,
  })
}

/** Up to five warnings on one line. */
export function describeWarnings(warnings: readonly SchemaWarning[]): string {
  const shown = warnings
    .slice(0, 5)
    .map((w) => `${w.path}: ${w.message} (sent ${JSON.stringify(w.value) ?? 'nothing'})`)
  return `${shown.join('; ')}${warnings.length > 5 ? '; …' : ''}`
}

function invalid(message: string): WebhookError {
  return new WebhookError(`Invalid webhook body. ${message}`, { code: 'invalid_payload', status: 400 })
}
