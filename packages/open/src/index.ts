export { type ResponseInfo, type WithResponse, withResponse } from '@service-sdk/core'
export type { MaterialSaveForm, OpenApi } from './api.ts'
export { createOpenClient, type OpenClient, type OpenClientOptions } from './client.ts'
export { MaterialSaveError } from './errors.ts'
export { orgIdForSave } from './org-id.ts'
export type { OpenProxyClientOptions, ProxiedOpenClient, ProxyHeaders } from './proxied-client.ts'
export type { CheckpointStore, SourceFingerprint, UploadCheckpoint } from './upload/checkpoint.ts'
export type { DonePart } from './upload/oss-adapter.ts'
export type { UploadPhase, UploadProgress } from './upload/progress.ts'
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
