import { type $ZodType, type output, safeParse } from 'zod/v4/core'
import { ServiceValidationError } from './errors.ts'

/**
 * Check caller input against a schema before anything is sent; throws `ServiceValidationError`.
 * Takes classic zod and zod/mini schemas alike (the open client's browser entry uses zod/mini).
 */
export function parseInput<S extends $ZodType>(schema: S, value: unknown, what: string): output<S> {
  const result = safeParse(schema, value)
  if (result.success) return result.data
  throw new ServiceValidationError(
    what,
    result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  )
}
