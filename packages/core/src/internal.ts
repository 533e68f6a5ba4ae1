/**
 * Plumbing shared by the SDK's own packages (`@service-sdk/team`, `open`, `webhooks`, `cli`).
 * Not part of the public contract: it may change in any release. Import the public API from
 * `@service-sdk/core` instead.
 * @packageDocumentation
 */
export {
  createOpenTransport,
  createSubscriptionTransport,
  createTeamTransport,
  type OpenTransportOptions,
  type SubscriptionTransportOptions,
  type TeamTransportOptions,
} from './areas.ts'
export {
  type EnvelopeContext,
  type ErrorHints,
  errorForOpenCode,
  errorForStatus,
  type HintKind,
  type OpenUnwrapOptions,
  unwrapOpen,
  unwrapTeam,
} from './envelope.ts'
export { checkId, NOT_AN_ID } from './id-check.ts'
export {
  errorType,
  type Instrumentation,
  type SpanAttributes,
  type SpanHandle,
  type SpanRole,
  startSpan,
} from './instrumentation.ts'
// Public in `@service-sdk/core`; listed here too so that the build puts them in a chunk of their
// own rather than in the schemas' (a client importing a limit must not load zod).
export { MAX_EXPIRY_HOURS, MAX_MATERIALS_PER_SAVE } from './limits.ts'
export { redactingLogger } from './logger.ts'
export {
  expandPath,
  type Operation,
  operation,
  type PathParams,
  type PathWith,
  type Verb,
} from './operation.ts'
export { createRawClient } from './raw-client.ts'
export { createRedactor, REDACTED, type Redactor } from './redact.ts'
export {
  type AttemptSpec,
  type Clock,
  execute,
  type RawResponse,
  type RequestContext,
  systemClock,
} from './request.ts'
export {
  type ForgeryVerdict,
  forgeryVerdict,
  type OriginAllowed,
  originCheck,
} from './request-origin.ts'
export { backoffDelay, DEFAULT_RETRY, parseRetryAfter, type RetryPolicy, resolveRetry } from './retry.ts'
export { abortable, sleep } from './sleep.ts'
export {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type SendSpec,
  type Transport,
  type TransportInit,
} from './transport.ts'
export { parseInput } from './validate.ts'
