import { z } from 'zod'
import { checkId, NOT_AN_ID } from '../json/id-check.ts'
import { tolerance } from './tolerance.ts'

/**
 * An id, accepted as a string of decimal digits, a safe non-negative integer or a bigint, and
 * output as its canonical decimal string: the SDK's one representation of ids (see `Id`). Numbers
 * beyond 2^53 are refused, because by then the digits have already been rounded.
 */
export const idSchema = z
  .union([z.string(), z.number(), z.bigint()], {
    error: (issue) => (issue.input === undefined ? 'is required' : NOT_AN_ID),
  })
  .transform((value, ctx): string => {
    const checked = checkId(value)
    if ('id' in checked) return checked.id
    ctx.addIssue({ code: 'custom', message: checked.problem, input: value })
    return z.NEVER
  })
  .register(tolerance, { scalar: 'id' })
