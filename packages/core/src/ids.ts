import { ID_KEYS } from './generated/ids.ts'
import { parseJson } from './json.ts'

/**
 * Every id in the SDK is a string of decimal digits. The service's ids are 64-bit integers, which
 * JavaScript numbers cannot hold beyond 2^53; strings keep every digit, compare with `===`, and
 * survive `JSON.stringify`. On the wire they travel as JSON integers, all digits intact.
 */
export type Id = string

/** Parse a body from the service: ids (and any integer beyond 2^53) become exact decimal strings. */
export function parseServiceJson(text: string): unknown {
  return parseJson(text, ID_KEYS)
}

/** An id in the form the serializer writes as a raw JSON integer. Validate input first (`idSchema`). */
export function wireId(id: Id | number): bigint {
  return BigInt(id)
}
