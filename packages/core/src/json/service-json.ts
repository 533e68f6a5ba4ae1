import { ID_KEYS, INTEGER_ID_KEYS } from '../generated/ids.ts'
import { parseJson, stringifyJson } from './json.ts'

// Every id in the SDK is a string of decimal digits (`Id` in types.ts). The service's ids are
// 64-bit integers, which JavaScript numbers cannot hold beyond 2^53; strings keep every digit,
// compare with `===`, and survive `JSON.stringify`. On the wire they travel as JSON integers.

/** Parse a body from the service: ids (and any integer beyond 2^53) become exact decimal strings. */
export function parseServiceJson(text: string): unknown {
  return parseJson(text, ID_KEYS)
}

/** Serialise a request body: decimal-string ids at integer id keys go out as JSON integers, every digit kept. */
export function stringifyServiceJson(value: unknown): string {
  return stringifyJson(value, INTEGER_ID_KEYS)
}
