import { crc64OfParts } from './crc64.ts'
import type { Digested } from './digest.ts'
import { etagOf, multipartEtag } from './etag.ts'
import { newUploadId } from './ids.ts'
import type {
  MultipartUpload,
  ObjectAttributes,
  ObjectStore,
  PutInput,
  StoredObject,
  StoredPart,
} from './store.ts'

// What an object, an upload and a part record, made the same way by both stores (memory and
// directory): the metadata path is one; each store only keeps the records and the bytes.

type InitiateInput = Parameters<ObjectStore['initiateMultipartUpload']>[0]

/** The object a PutObject of `input` makes, its body digested as `digest`. */
export function putRecord(input: PutInput, digest: Digested): StoredObject {
  return {
    bucket: input.bucket,
    key: input.key,
    size: digest.size,
    etag: etagOf(digest.md5),
    crc64: digest.crc64,
    contentType: input.contentType,
    lastModified: new Date(),
    ...(input.metadata ? { metadata: { ...input.metadata } } : {}),
    ...(input.attributes ? { attributes: structuredClone(input.attributes) } : {}),
  }
}

/** A new multipart upload of `input`. */
export function uploadRecord(input: InitiateInput): MultipartUpload {
  return {
    bucket: input.bucket,
    key: input.key,
    uploadId: newUploadId(),
    contentType: input.contentType,
    initiated: new Date(),
    ...(input.metadata ? { metadata: { ...input.metadata } } : {}),
    ...(input.attributes ? { attributes: structuredClone(input.attributes) } : {}),
  }
}

/** Part `partNumber`, its body digested as `digest`. */
export function partRecord(partNumber: number, digest: Digested): StoredPart {
  return {
    partNumber,
    etag: etagOf(digest.md5),
    crc64: digest.crc64,
    size: digest.size,
    lastModified: new Date(),
  }
}

/** The object CompleteMultipartUpload makes of `upload` and its `selected` parts. */
export function completedRecord(upload: MultipartUpload, selected: readonly StoredPart[]): StoredObject {
  const crc64 = crc64OfParts(selected)
  return {
    bucket: upload.bucket,
    key: upload.key,
    size: selected.reduce((sum, p) => sum + p.size, 0),
    etag: multipartEtag(selected.map((p) => p.etag)),
    ...(crc64 !== undefined ? { crc64 } : {}),
    contentType: upload.contentType,
    lastModified: new Date(),
    ...(upload.metadata ? { metadata: { ...upload.metadata } } : {}),
    ...(upload.attributes ? { attributes: structuredClone(upload.attributes) } : {}),
  }
}

/** An object's record with its attributes (tags, ACL...) replaced by a copy of `attributes`; size, ETag, CRC and dates unchanged. */
export function withAttributes<T extends Pick<StoredObject, 'attributes'>>(
  record: T,
  attributes: ObjectAttributes,
): T {
  return { ...record, attributes: structuredClone(attributes) }
}

/** A copy the caller may change without touching the store's record. */
export function copyRecord<T extends StoredObject | MultipartUpload | StoredPart>(record: T): T {
  return structuredClone(record)
}
