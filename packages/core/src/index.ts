/**
 * The public contract shared by the SDK's clients: the error classes and their codes, the types
 * of `spec/openapi.yaml` a caller names (resources, events, method inputs), the lossless JSON
 * codec and the options every client accepts. The zod schemas are in `@service-sdk/core/schemas`;
 * plumbing the SDK's own packages share (transports, envelopes, retries, span details, the plain
 * JSON helpers) is in `@service-sdk/core/internal`, outside semver.
 * @packageDocumentation
 */
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
} from './errors/error-codes.ts'
export {
  type PermissionReason,
  ServiceApiError,
  type ServiceArea,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceConnectionError,
  ServiceError,
  type ServiceErrorJSON,
  ServiceInvalidRequestError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceResponseError,
  ServiceServerError,
  ServiceTimeoutError,
  ServiceValidationError,
  UploadError,
  type ValidationIssue,
} from './errors/errors.ts'
export type {
  components as ServiceComponents,
  paths as ServicePaths,
  webhooks as ServiceWebhooks,
} from './generated/openapi.ts'
export { parseServiceJson, stringifyServiceJson } from './json/service-json.ts'
export { MAX_EXPIRY_HOURS, MAX_MATERIALS_PER_SAVE } from './limits.ts'
export type { Logger } from './logging/logger.ts'
export type { Instrumentation } from './tracing/instrumentation.ts'
export type { OpenToken } from './transport/areas.ts'
export type { ResponseInfo } from './transport/context.ts'
export type { RawClient } from './transport/raw-client.ts'
export type { RetryOptions } from './transport/retry.ts'
export type { CallOptions, ClientOptions } from './transport/transport.ts'
export { type WithResponse, withResponse } from './transport/with-response.ts'
export type * from './types.ts'
export { VERSION } from './version.ts'
