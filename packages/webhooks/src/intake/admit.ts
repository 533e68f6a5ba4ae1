import { decodeBody } from '../events/decode.ts'
import { eventTypeOf } from '../events/parse.ts'
import { dedupeKey } from './dedupe-key.ts'

export interface Admitted {
  eventType: string
  key: string
  /**
   * The body as the lossless parser reads it (ids as decimal strings): what processing reads,
   * handed to the worker when it takes the event as it arrives, so the body is parsed once.
   */
  body: Record<string, unknown>
}

/**
 * What the receiver checks before storing a body: JSON, an object, not too deep; then its event
 * type and de-duplication key. Only that: the typed parse runs when the event is processed, so a
 * body the schemas do not expect is still stored and delivered (with warnings), never lost.
 */
export function admit(text: string): Admitted {
  const body = decodeBody(text)
  return { eventType: eventTypeOf(body), key: dedupeKey(body), body }
}
