import type { $ZodType, output } from 'zod/v4/core'
import { ServiceValidationError } from './errors/errors.ts'

/**
 * Check caller input against a schema before anything is sent; throws `ServiceValidationError`.
 * Takes classic zod and zod/mini schemas alike. It calls the schema's own Standard Schema
 * `validate` (the same parse, the same issues) rather than importing zod's `safeParse`, so a
 * bundle that uses this function but no schema yet (the open client's browser entry, whose
 * schemas load on the first call) carries none of zod.
 */
export function parseInput<S extends $ZodType>(schema: S, value: unknown, what: string): output<S> {
  const result = schema['~standard'].validate(value)
  if (result instanceof Promise) {
    // Only synchronous schemas are passed here; zod's `safeParse` refused async ones the same way.
    throw new TypeError(`The schema of ${what} is asynchronous: it cannot check input synchronously`)
  }
  if (!result.issues) return result.value as output<S>
  throw new ServiceValidationError(
    what,
    result.issues.map((issue) => ({
      path: (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.'),
      message: issue.message,
    })),
  )
}
