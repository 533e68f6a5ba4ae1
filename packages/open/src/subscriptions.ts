import type {
  CallOptions,
  EventSubscribeParams,
  EventTypeEntry,
  FolderSubscribeParams,
} from '@service-sdk/core'
import { ServiceValidationError } from '@service-sdk/core'
import { type Operation, operation, parseInput, type Transport } from '@service-sdk/core/internal'
import { SubscriptionNotAppliedError } from './errors.ts'
import { loadSchemas } from './load-schemas.ts'

const FOLDER_SUBSCRIBE = operation('POST', '/api/service/folder-subscribe')
const EVENT_SUBSCRIBE = operation('POST', '/api/service/material-automation-subscribe')
const EVENT_TYPES = operation('GET', '/api/service/material-automation-event-types')

/** ADD binds a callback URL; DELETE removes the binding. */
export type SubscriptionChange = 'ADD' | 'DELETE'

/** The subscription endpoints' transport (API key), which the client has only with `apiKey`. */
function required(subscription: Transport | undefined): Transport {
  if (subscription) return subscription
  throw new ServiceValidationError('open client options', [
    { path: 'apiKey', message: 'is required for the subscription endpoints (folders.*, events.*)' },
  ])
}

export async function changeFolderSubscription(
  subscription: Transport | undefined,
  input: FolderSubscribeParams,
  change: SubscriptionChange,
  call?: CallOptions,
): Promise<void> {
  const transport = required(subscription)
  const { folderSubscribeInputSchema } = await loadSchemas()
  const body = parseInput(folderSubscribeInputSchema, input, 'folder subscription')
  await applyChange(transport, FOLDER_SUBSCRIBE, { ...body, operation: change }, change, call)
}

export async function changeEventSubscription(
  subscription: Transport | undefined,
  input: EventSubscribeParams,
  change: SubscriptionChange,
  call?: CallOptions,
): Promise<void> {
  const transport = required(subscription)
  const { eventSubscribeInputSchema } = await loadSchemas()
  const body = parseInput(eventSubscribeInputSchema, input, 'event subscription')
  await applyChange(transport, EVENT_SUBSCRIBE, { ...body, operation: change }, change, call)
}

/**
 * ADD or DELETE of a subscription: idempotent (the same binding twice is one binding). The
 * service answers a Boolean; `false` means nothing was applied, which is thrown.
 */
async function applyChange(
  transport: Transport,
  subscribe: Operation,
  body: object,
  change: SubscriptionChange,
  call?: CallOptions,
): Promise<void> {
  const { appliedSchema } = await loadSchemas()
  const applied = await transport.send<boolean>(
    { operation: subscribe, body, idempotent: true, schema: appliedSchema },
    call,
  )
  if (applied !== true) throw new SubscriptionNotAppliedError(subscribe.path, change)
}

/** The asset events on offer, each with whether this API key subscribes to it. */
export async function eventTypes(
  subscription: Transport | undefined,
  call?: CallOptions,
): Promise<EventTypeEntry[]> {
  const transport = required(subscription)
  const { eventTypeListSchema } = await loadSchemas()
  return transport.send<EventTypeEntry[]>(
    {
      operation: EVENT_TYPES,
      idempotent: true,
      // The spec does not say whether this list comes wrapped: both are accepted.
      allowBare: true,
      schema: eventTypeListSchema,
    },
    call,
  )
}
