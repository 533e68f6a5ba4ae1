import type { z } from 'zod'
import { ServiceValidationError } from './errors.ts'

/** Check caller input against a schema before anything is sent; throws `ServiceValidationError`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ServiceValidationError(
    what,
    result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  )
}
