export { createOssApp, OSS_SERVER_OPTIONS, type OssOptions, type OssRequestTweaks } from './app.ts'
export type { OssCors, OssCorsRule } from './protocol/cors.ts'
export type { OssCredential, OssOperation, OssRequestContext } from './protocol/credentials.ts'
export { ossError } from './protocol/errors.ts'
export { directoryObjectStore } from './store/directory-store.ts'
export { memoryObjectStore } from './store/memory-store.ts'
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
} from './store/store.ts'
