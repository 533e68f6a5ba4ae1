// The rule for ids, without zod: `idSchema` (classic zod, public) and the open client's option
// checks (zod/mini, in the browser entry) both apply it, so it is written once.

const DIGITS = /^[0-9]+$/
// The service's ids are signed 64-bit integers (Java `Long`): anything larger is not an id.
const MAX_ID = 2n ** 63n - 1n

function show(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/** The canonical decimal string of an id, or what is wrong with `value` as an id. */
export function checkId(value: string | number | bigint): { id: string } | { problem: string } {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0)
      return { problem: `must be a non-negative integer id, not ${value}` }
    if (!Number.isSafeInteger(value)) {
      return {
        problem: `id ${value} is beyond Number.MAX_SAFE_INTEGER, so its digits may already be rounded: pass the id as a string or a bigint`,
      }
    }
    return { id: String(value) }
  }
  if (typeof value === 'string' && !DIGITS.test(value)) {
    return { problem: `must be an id made of decimal digits only, not ${show(value)}` }
  }
  const id = BigInt(value)
  if (id < 0n) return { problem: `must be a non-negative id, not ${id}` }
  if (id > MAX_ID) return { problem: `id ${id} is beyond the 64-bit range of the service's ids` }
  return { id: id.toString() }
}

/** The message for a value that is not even a string, number or bigint. */
export const NOT_AN_ID = 'must be an id: a string of decimal digits, a non-negative safe integer or a bigint'
