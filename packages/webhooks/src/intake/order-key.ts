import { type Logger, ServiceValidationError } from '@service-sdk/core'
import { describeError } from '../errors.ts'
import { decodeBody } from '../events/decode.ts'
import { eventObjectOf } from '../events/event-object.ts'
import type { WebhookEvent } from '../events/events.ts'
import { readWebhook } from '../events/parse.ts'

/**
 * Which events must run one at a time, in the order the receiver stored them: events that get
 * the same key. `'folderId'`: a folder callback's `folderId`, or an asset event's single
 * `payload.folderIds` entry. `'materialId'`: an asset event's single `payload.materialIds` entry.
 * A function: its result (a string or number; `undefined`, `null` or `''` for none). An event
 * without a key is not ordered.
 */
export type OrderBy =
  | 'folderId'
  | 'materialId'
  | ((event: WebhookEvent) => string | number | null | undefined)

/** What the receiver calls on each stored body: the order key, or null. */
export type OrderKeyOf = (text: string, receivedAt: number) => string | null

export function orderKeys(orderBy: OrderBy | undefined, logger: Logger): OrderKeyOf | undefined {
  if (orderBy === undefined) return undefined
  const builtIn =
    typeof orderBy === 'string' && Object.hasOwn(BUILT_IN, orderBy) ? BUILT_IN[orderBy] : undefined
  if (typeof orderBy !== 'function' && !builtIn) {
    throw new ServiceValidationError('createWebhookReceiver options', [
      { path: 'orderBy', message: "must be 'folderId', 'materialId' or a function" },
    ])
  }
  // The lossless parse (ids beyond 2^53 exact) is enough for the built-in keys; a function gets
  // the typed event, as handlers see it (the schema check costs more: see the README's figures).
  const keyOf =
    typeof orderBy === 'function'
      ? (body: Record<string, unknown>, receivedAt: number) =>
          orderBy(readWebhook(body, { receivedAt }).event)
      : builtIn!
  const prefix = typeof orderBy === 'function' ? '' : `${orderBy}:`
  return (text, receivedAt) => {
    const body = decodeBody(text)
    let key: unknown
    try {
      key = keyOf(body, receivedAt)
    } catch (error) {
      // Refusing would make the sender retry a body that fails the same way: stored unordered, said loudly.
      logger.error('webhooks: orderBy threw; the event is stored without an order key', {
        error: describeError(error),
      })
      return null
    }
    if ((typeof key === 'string' && key !== '') || (typeof key === 'number' && Number.isFinite(key)))
      return `${prefix}${key}`
    return null
  }
}

/** Keys read from the decoded body. */
const BUILT_IN: Record<string, (body: Record<string, unknown>, receivedAt: number) => unknown> = {
  folderId: (body) => ('folderId' in body ? body.folderId : single(eventObjectOf(body).folderIds)),
  materialId: (body) => single(eventObjectOf(body).materialIds),
}

/** The one id of a list naming exactly one; several ids (or none) give no key. */
function single(ids: unknown): unknown {
  return Array.isArray(ids) && ids.length === 1 ? ids[0] : undefined
}
