export { createOssApp, OSS_SERVER_OPTIONS, type OssOptions, type OssRequestTweaks } from './app.ts'
export type { OssCors, OssCorsRule } from './cors.ts'
export type { OssCredential, OssOperation, OssRequestContext } from './credentials.ts'
export { directoryObjectStore } from './directory-store.ts'
export { ossError } from './errors.ts'
export { memoryObjectStore } from './memory-store.ts'
export {
  type ByteSource,
  type CompleteInput,
  type CompletePart,
  MIN_PART_SIZE,
  type MultipartUpload,
  type ObjectBody,
  type ObjectStore,
  ObjectStoreError,
  type ObjectStoreErrorCode,
  type PutInput,
  type RangeRequest,
  type StoredObject,
  type StoredPart,
  type UploadPartInput,
} from './store.ts'
