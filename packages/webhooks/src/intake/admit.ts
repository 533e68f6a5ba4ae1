import { decodeBody } from '../events/decode.ts'
import { eventTypeOf } from '../events/parse.ts'
import { dedupeKey } from './dedupe-key.ts'

export interface Admitted {
  eventType: string
  key: string
  /**
   * The body as the lossless parser reads it (ids as decimal strings): what processing reads,
   * handed to the worker when it takes the event as it arrives, so the body is parsed once.
   * Absent when admission was asked for no body (see `admit`).
   */
  body?: Record<string, unknown> | undefined
}

/**
 * What the receiver checks before storing a body: JSON, an object, not too deep; then its event
 * type and de-duplication key. Only that: the typed parse runs when the event is processed, so a
 * body the schemas do not expect is still stored and delivered (with warnings), never lost.
 * `wantsBody` false: the caller will not read the parsed body, so it may be left out.
 */
export function admit(text: string, wantsBody = true): Admitted {
  if (!wantsBody) {
    const plain = plainAdmission(text)
    if (plain) return plain
  }
  const body = decodeBody(text)
  return { eventType: eventTypeOf(body), key: dedupeKey(body), body }
}

/**
 * Admission with `JSON.parse`, for a body nobody will read as parsed here (an ingest-only
 * receiver; an event the worker has no room for, claimed later from its stored text). It costs
 * half the CPU of the lossless parse on the benches' asset event (1.1 against 2.4 µs, a loop on
 * Node 24), which was the largest share of an ingest-only receiver's own JavaScript. Enough when
 * `eventId` and `eventType` are strings (every asset event, spec/openapi.yaml): no number decides
 * the key or the type. Anything else, malformed or odd bodies included, is left to the lossless admission
 * (`undefined`), so both ways admit the same bodies with the same key and type and refuse the
 * same ones with the same error (admit.test.ts).
 */
function plainAdmission(text: string): Admitted | undefined {
  let body: Record<string, unknown>
  try {
    body = decodeBody(text, JSON.parse)
  } catch {
    return undefined
  }
  const { eventId, eventType } = body
  if (typeof eventId !== 'string' || eventId === '') return undefined
  if (eventType !== undefined && eventType !== null && typeof eventType !== 'string') return undefined
  return { eventType: eventTypeOf(body), key: eventId }
}
