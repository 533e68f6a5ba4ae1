import { parseServiceJson } from '@service-sdk/core'
import { jsonObject } from './decode.ts'
import { canonicalKey } from './dedupe-key.ts'
import { eventTypeOf } from './parse.ts'

export interface Admitted {
  eventType: string
  key: string
}

/**
 * What the receiver checks before storing a body: JSON, an object, not too deep; then its event
 * type and de-duplication key. Only that: the typed parse runs when the event is processed, so a
 * body the schemas do not expect is still stored and delivered (with warnings), never lost.
 *
 * The native parser is enough here, as the eventId is a string; the lossless parser (slower, it
 * revives every value) runs only when the key is a content hash that must see every digit.
 */
export function admit(text: string): Admitted {
  const body = jsonObject(text, JSON.parse)
  const eventType = eventTypeOf(body)
  const id = body.eventId
  if (typeof id === 'string' && id !== '') return { eventType, key: id }
  if (typeof id === 'number' && Number.isSafeInteger(id)) return { eventType, key: String(id) }
  const exact = parseServiceJson(text) as Record<string, unknown>
  // An eventId beyond 2^53 sent as a JSON number: JSON.parse rounded it, the lossless parse did not.
  if (typeof id === 'number' && typeof exact.eventId === 'string') return { eventType, key: exact.eventId }
  return { eventType, key: canonicalKey(exact) }
}
