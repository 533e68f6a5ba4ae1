export {
  createOpenTransport,
  createSubscriptionTransport,
  createTeamTransport,
  type OpenToken,
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
export {
  type ErrorKind,
  type PermissionReason,
  ServiceApiError,
  type ServiceApiErrorInit,
  type ServiceArea,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceConnectionError,
  ServiceError,
  type ServiceErrorJSON,
  type ServiceErrorOptions,
  ServiceInvalidRequestError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceResponseError,
  ServiceServerError,
  ServiceTimeoutError,
  ServiceValidationError,
  UploadError,
  type UploadErrorInit,
  type ValidationIssue,
} from './errors.ts'
export type {
  components as ServiceComponents,
  paths as ServicePaths,
  webhooks as ServiceWebhooks,
} from './generated/openapi.ts'
export { parseServiceJson, stringifyServiceJson } from './ids.ts'
export type { Instrumentation, SpanAttributes, SpanHandle, SpanRole } from './instrumentation.ts'
export { parseJson, parseJsonWithBigInts, stringifyJson } from './json.ts'
export { type Logger, redactingLogger, silentLogger } from './logger.ts'
export { createRedactor, REDACTED, type Redactor } from './redact.ts'
export {
  type AttemptSpec,
  type Clock,
  execute,
  type RawResponse,
  type RequestContext,
  type ResponseInfo,
  systemClock,
} from './request.ts'
export { DEFAULT_RETRY, type RetryOptions, type RetryPolicy } from './retry.ts'
export * from './schemas/index.ts'
export {
  type AttemptInit,
  type CallOptions,
  type ClientOptions,
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type SendSpec,
  type Transport,
  type TransportInit,
} from './transport.ts'
export type * from './types.ts'
export { parseInput } from './validate.ts'
export { VERSION } from './version.ts'
export { type WithResponse, withResponse } from './with-response.ts'
