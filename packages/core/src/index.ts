/**
 * The public contract shared by the SDK's clients: the error classes, the types and zod schemas
 * of `spec/openapi.yaml`, the lossless JSON codec and the options every client accepts.
 * Plumbing the SDK's own packages share (transports, envelopes, retries) is in
 * `@service-sdk/core/internal`, outside semver.
 * @packageDocumentation
 */
export type { OpenToken } from './areas.ts'
export type {
  AuthenticationCode,
  ConflictCode,
  InvalidRequestCode,
  NotFoundCode,
  OpenAreaCode,
  PermissionCode,
  RateLimitCode,
  ResponseErrorCode,
  ServerErrorCode,
  ServiceApiErrorCode,
  TeamStatusCode,
  UploadErrorCode,
  UploadProxyCode,
} from './error-codes.ts'
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
export type { Instrumentation, SpanAttributes, SpanHandle, SpanOptions, SpanRole } from './instrumentation.ts'
export { parseJson, parseJsonWithBigInts, stringifyJson } from './json.ts'
export { MAX_EXPIRY_HOURS, MAX_MATERIALS_PER_SAVE } from './limits.ts'
export { type Logger, silentLogger } from './logger.ts'
export type { RawClient } from './raw-client.ts'
export type { ResponseInfo } from './request.ts'
export type { RetryOptions } from './retry.ts'
export * from './schemas/index.ts'
export { parseServiceJson, stringifyServiceJson } from './service-json.ts'
export type { CallOptions, ClientOptions } from './transport.ts'
export type * from './types.ts'
export { VERSION } from './version.ts'
export { type WithResponse, withResponse } from './with-response.ts'
