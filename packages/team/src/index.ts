// The errors this client throws and the options types it takes, from @service-sdk/core: one
// package to install, one to import from.
export {
  type CallOptions,
  type ClientOptions,
  type Logger,
  MAX_EXPIRY_HOURS,
  type PermissionReason,
  type ResponseInfo,
  type RetryOptions,
  ServiceApiError,
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
  type ValidationIssue,
  type WithResponse,
  withResponse,
} from '@service-sdk/core'
export { checkCallbackUrl } from './callback-url.ts'
export {
  createTeamClient,
  type ImpersonateOptions,
  type TeamClient,
  type TeamClientOptions,
} from './client.ts'
export {
  embedImpersonation,
  IMPERSONATION_ALLOW,
  IMPERSONATION_SANDBOX,
  type ImpersonationIframe,
} from './embed.ts'
