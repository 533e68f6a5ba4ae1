/**
 * Plumbing shared by the SDK's own packages (`@service-sdk/team`, `open`, `webhooks`, `cli`).
 * Not part of the public contract: it may change in any release. Import the public API from
 * `@service-sdk/core` instead.
 * @packageDocumentation
 */

export {
  errorType,
  type Instrumentation,
  type SpanAttributes,
  type SpanHandle,
  type SpanRole,
  startSpan,
} from './instrumentation.ts'
export { backoffDelay, type RetryPolicy, resolveRetry } from './retry.ts'
export { abortable, sleep } from './sleep.ts'
