import { z } from 'zod'

const DIGITS = /^[0-9]+$/
// The service's ids are signed 64-bit integers (Java `Long`): anything larger is not an id.
const MAX_ID = 2n ** 63n - 1n

function show(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/**
 * An id, accepted as a string of decimal digits, a safe non-negative integer or a bigint, and
 * output as its canonical decimal string: the SDK's one representation of ids (see `Id`). Numbers
 * beyond 2^53 are refused, because by then the digits have already been rounded.
 */
export const idSchema = z
  .union([z.string(), z.number(), z.bigint()], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : 'must be an id: a string of decimal digits, a non-negative safe integer or a bigint',
  })
  .transform((value, ctx): string => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, input: value })
      return z.NEVER
    }
    if (typeof value === 'number') {
      if (!Number.isInteger(value) || value < 0)
        return fail(`must be a non-negative integer id, not ${value}`)
      if (!Number.isSafeInteger(value)) {
        return fail(
          `id ${value} is beyond Number.MAX_SAFE_INTEGER, so its digits may already be rounded: pass the id as a string or a bigint`,
        )
      }
      return String(value)
    }
    if (typeof value === 'string' && !DIGITS.test(value)) {
      return fail(`must be an id made of decimal digits only, not ${show(value)}`)
    }
    const id = BigInt(value)
    if (id < 0n) return fail(`must be a non-negative id, not ${id}`)
    if (id > MAX_ID) return fail(`id ${id} is beyond the 64-bit range of the service's ids`)
    return id.toString()
  })
