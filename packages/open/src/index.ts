// The errors this client throws and the options types it takes, from @service-sdk/core: one
// package to install, one to import from.
export {
  type AuthenticationCode,
  type CallOptions,
  type ClientOptions,
  type ConflictCode,
  type InvalidRequestCode,
  type Logger,
  type NotFoundCode,
  type OpenAreaCode,
  type OpenToken,
  type PermissionCode,
  type PermissionReason,
  type RateLimitCode,
  type RawClient,
  type ResponseErrorCode,
  type ResponseInfo,
  type RetryOptions,
  type ServerErrorCode,
  ServiceApiError,
  type ServiceApiErrorCode,
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
  type TeamStatusCode,
  UploadError,
  type UploadErrorCode,
  type UploadProxyCode,
  type ValidationIssue,
  type WithResponse,
  withResponse,
} from '@service-sdk/core'
export type { MaterialSaveForm, OpenApi } from './api.ts'
export { createOpenClient, type OpenClientOptions } from './client.ts'
export type { OpenClient } from './client-assembly.ts'
export {
  MaterialSaveError,
  type NotWritableReason,
  SpaceNotWritableError,
  SubscriptionNotAppliedError,
} from './errors.ts'
export type { OpenProxyClientOptions, ProxiedOpenClient, ProxyHeaders } from './proxied-client.ts'
export type {
  CheckpointStore,
  ListableCheckpointStore,
  SourceFingerprint,
  UploadCheckpoint,
} from './upload/checkpoints/checkpoint.ts'
export {
  type IndexedDbCheckpointOptions,
  indexedDbCheckpoints,
} from './upload/checkpoints/indexeddb-checkpoints.ts'
export type { DonePart } from './upload/oss/types.ts'
export type { UploadPhase, UploadProgress } from './upload/run/progress.ts'
export { asUploadFailure, type UploadFailure } from './upload/run/upload-failure.ts'
export type {
  CleanupOptions,
  CleanupResult,
  StaleUpload,
  Upload,
  UploadAssetFields,
  UploadBatch,
  UploadDefaults,
  UploadedAsset,
  UploadManyItem,
  UploadManyOptions,
  UploadManyProgress,
  UploadManyResult,
  UploadOptions,
  UploadRetryOptions,
  UploadSource,
  UploadTransferOptions,
} from './upload/types.ts'
export { canWrite, writableOrgs } from './write-rule.ts'
