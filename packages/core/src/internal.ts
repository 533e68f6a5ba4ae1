/**
 * Plumbing shared by the SDK's own packages (`@service-sdk/team`, `open`, `webhooks`, `cli`).
 * Not part of the public contract: it may change in any release. Import the public API from
 * `@service-sdk/core` instead.
 * @packageDocumentation
 */

// Construction details of the public error classes: what the SDK's packages pass to make one.
export type {
  ErrorKind,
  ServiceApiErrorInit,
  ServiceErrorOptions,
  UploadErrorInit,
} from './errors/errors.ts'
export { checkId, NOT_AN_ID } from './json/id-check.ts'
// The plain JSON helpers under the public codec (`parseServiceJson`, `stringifyServiceJson`).
export { parseJson, parseJsonWithBigInts, stringifyJson } from './json/json.ts'
export { redactingLogger, silentLogger } from './logging/logger.ts'
export { createRedactor, REDACTED, type Redactor } from './logging/redact.ts'
export {
  type ForgeryVerdict,
  forgeryVerdict,
  type OriginAllowed,
  originCheck,
} from './origin/request-origin.ts'
export {
  errorType,
  type Instrumentation,
  type SpanAttributes,
  type SpanHandle,
  type SpanOptions,
  type SpanRole,
  startSpan,
} from './tracing/instrumentation.ts'
export {
  createOpenTransport,
  createSubscriptionTransport,
  createTeamTransport,
  type OpenTransportOptions,
  type SubscriptionTransportOptions,
  type TeamTransportOptions,
} from './transport/areas.ts'
export type { Clock, RequestContext } from './transport/context.ts'
export {
  type EnvelopeContext,
  type ErrorHints,
  errorForOpenCode,
  errorForStatus,
  type HintKind,
  type OpenUnwrapOptions,
  unwrapOpen,
  unwrapTeam,
} from './transport/envelope.ts'
export {
  expandPath,
  type Operation,
  operation,
  type PathParams,
  type PathWith,
  type Verb,
} from './transport/operation.ts'
export { createRawClient } from './transport/raw-client.ts'
export { type AttemptSpec, execute, type RawResponse, systemClock } from './transport/request.ts'
export {
  backoffDelay,
  DEFAULT_RETRY,
  parseRetryAfter,
  type RetryPolicy,
  resolveRetry,
} from './transport/retry.ts'
export { abortable, sleep } from './transport/sleep.ts'
export {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type SendSpec,
  type Transport,
  type TransportInit,
} from './transport/transport.ts'
export { parseInput } from './validate.ts'
