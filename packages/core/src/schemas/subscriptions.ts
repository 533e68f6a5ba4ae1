import { z } from 'zod'
import { idSchema } from './ids.ts'

/** The asset events that may be subscribed; no others are offered (docs/service/subscriptions.md). */
export const ASSET_EVENT_TYPES = [
  'MATERIAL_INBOUND_COMPLETED',
  'MATERIAL_ADDED_TO_FOLDER',
  'MATERIAL_METADATA_UPDATED',
  'MATERIAL_VERSION_CHANGED',
  'MATERIAL_DELETED',
] as const

export const assetEventTypeSchema = z.enum(ASSET_EVENT_TYPES, {
  error: (issue) =>
    `must be one of ${ASSET_EVENT_TYPES.join(', ')}${typeof issue.input === 'string' ? `, not ${issue.input}` : ''}`,
})

/**
 * Whether a code (from `events.types()`, which may list codes newer than this SDK) is one the SDK
 * can subscribe to: narrows it for `events.subscribe({ eventTypes })`.
 */
export function isAssetEventType(code: string): code is (typeof ASSET_EVENT_TYPES)[number] {
  return (ASSET_EVENT_TYPES as readonly string[]).includes(code)
}

/** The folder subscription's event type: the only one, and the default (docs/service/subscriptions.md). */
export const FOLDER_CONTENT_UPDATE = 'FOLDER_CONTENT_UPDATE'

export const folderEventTypeSchema = z.literal(FOLDER_CONTENT_UPDATE, {
  error: `must be ${FOLDER_CONTENT_UPDATE}`,
})

/** ADD (the default) subscribes; DELETE cancels. */
export const subscriptionOperationSchema = z.enum(['ADD', 'DELETE'], { error: 'must be ADD or DELETE' })

const callbackUrl = z.url({
  protocol: /^https?$/,
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be an absolute http(s) URL'),
})

/** `open.folders.subscribe(...)` / `.unsubscribe(...)`. */
export const folderSubscribeInputSchema = z.strictObject({
  folderIds: z
    .array(idSchema, { error: 'must be an array of folder ids' })
    .min(1, 'must list at least one folder id'),
  callbackUrl,
  eventType: folderEventTypeSchema.exactOptional(),
})

/** The folder-subscribe request body (the input plus `operation`). */
export const folderSubscribeRequestSchema = folderSubscribeInputSchema.extend({
  operation: subscriptionOperationSchema.exactOptional(),
})

/** `open.events.subscribe(...)` / `.unsubscribe(...)`. */
export const eventSubscribeInputSchema = z.strictObject({
  callbackUrl,
  eventTypes: z
    .array(assetEventTypeSchema, { error: 'must be an array of event types' })
    .min(1, 'must list at least one event type'),
})

/** The material-automation-subscribe request body (the input plus `operation`). */
export const eventSubscribeRequestSchema = eventSubscribeInputSchema.extend({
  operation: subscriptionOperationSchema.exactOptional(),
})

/** An entry of the event-types query. `code` is a string: the list may offer codes newer than the SDK. */
export const eventTypeEntrySchema = z.looseObject({
  code: z.string(),
  desc: z.string(),
  needsConfig: z.boolean(),
  subscribed: z.boolean(),
})
