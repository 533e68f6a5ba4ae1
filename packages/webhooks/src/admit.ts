import { parseServiceJson } from '@service-sdk/core'
import { MAX_JSON_DEPTH, nestingDepth } from './decode.ts'
import { canonicalKey } from './dedupe-key.ts'
import { WebhookError } from './errors.ts'
import { eventTypeOf } from './parse.ts'

export interface Admitted {
  eventType: string
  key: string
}

/**
 * What the receiver checks before storing a body: JSON, an object, not too deep, an event type,
 * and its de-duplication key. Only that: the typed parse runs when the event is processed, so a
 * body the schemas do not expect is still stored (and dead-lettered with the reason), never lost.
 *
 * The native parser is enough here, as the eventId is a string; the lossless parser (slower, it
 * revives every value) runs only when the key is a content hash that must see every digit.
 */
export function admit(text: string): Admitted {
  if (!/\S/.test(text)) throw malformed('The body is empty.')
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new WebhookError(`The body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
      code: 'invalid_payload',
      status: 400,
    })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw malformed(`The body is not valid JSON (${(cause as Error).message}).`, cause)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookError('The body is JSON but not an object; every callback and webhook is one.', {
      code: 'invalid_payload',
      status: 400,
    })
  }
  const body = value as Record<string, unknown>
  const eventType = eventTypeOf(body)
  const id = body.eventId
  if (typeof id === 'string' && id !== '') return { eventType, key: id }
  if (typeof id === 'number' && Number.isSafeInteger(id)) return { eventType, key: String(id) }
  return { eventType, key: canonicalKey(parseServiceJson(text) as Record<string, unknown>) }
}

function malformed(message: string, cause?: unknown): WebhookError {
  return new WebhookError(message, { code: 'malformed_json', status: 400, cause })
}
