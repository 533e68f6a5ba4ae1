/**
 * The object store behind the OSS app: plain async functions, no HTTP. Bodies come in as async
 * iterables (a Node IncomingMessage and a Web ReadableStream both fit) and are consumed as they
 * arrive, hashing MD5 on the way; bodies go out as Web ReadableStreams (a `Response` takes them).
 * Failures that OSS reports with a code are thrown as `ObjectStoreError` with that code.
 */

/** Bytes as they arrive. Producers must not reuse a chunk's memory after yielding it. */
export type ByteSource = AsyncIterable<Uint8Array>

/**
 * What an object carries besides its bytes and user metadata, kept as given and answered back:
 * standard headers (Cache-Control, Content-Disposition, Content-Encoding, Content-Language,
 * Expires, server-side encryption, storage class), its ACL, its tags, whether it is appendable.
 */
export interface ObjectAttributes {
  /** Lower-case header name to value. */
  headers?: Record<string, string>
  /** `private`, `public-read`, `public-read-write`; absent: `default` (the bucket's). */
  acl?: string
  tags?: Record<string, string>
  /** Created by AppendObject (x-oss-object-type: Appendable). */
  appendable?: boolean
  /** Created by PutSymlink: the key it points to (x-oss-object-type: Symlink). */
  symlinkTarget?: string
}

export interface StoredObject {
  bucket: string
  key: string
  size: number
  /** Quoted upper-case MD5 hex (`"9E10..."`), or multipart-style `"<hex>-<parts>"`. */
  etag: string
  contentType: string
  lastModified: Date
  /** User metadata (`x-oss-meta-*` without the prefix, names lower-case). */
  metadata?: Record<string, string>
  /** CRC-64/ECMA-182 of the stored bytes, decimal (`x-oss-hash-crc64ecma`); absent on data stored before it was kept. */
  crc64?: string
  attributes?: ObjectAttributes
}

export interface PutInput {
  bucket: string
  key: string
  contentType: string
  body: ByteSource
  /** Base64 MD5 the client sent (Content-MD5): checked before the object is committed. */
  contentMd5?: string | undefined
  /** Bytes announced (Content-Length): fewer or more is `IncompleteBody`. */
  contentLength?: number | undefined
  metadata?: Record<string, string> | undefined
  /** x-oss-forbid-overwrite: `FileAlreadyExists` instead of replacing an object. */
  forbidOverwrite?: boolean | undefined
  /** Fault injection: store the byte at this offset inverted (see `DigestOptions.corruptAt`). */
  corruptAt?: number | undefined
  attributes?: ObjectAttributes | undefined
}

/** A body as a write receives it, with what the client announced about it. */
export type BodyInput = Pick<PutInput, 'body' | 'contentMd5' | 'contentLength' | 'corruptAt'>

/** An HTTP byte range: `{ start, end? }` (end inclusive) or the last `suffix` bytes. */
export type RangeRequest = { start: number; end?: number | undefined } | { suffix: number }

export interface ObjectBody {
  object: StoredObject
  body: ReadableStream<Uint8Array>
  /** The inclusive byte range served, when a range was asked for. */
  range?: { start: number; end: number }
}

export interface MultipartUpload {
  bucket: string
  key: string
  uploadId: string
  contentType: string
  initiated: Date
  metadata?: Record<string, string>
  /** Given to the object at Complete. */
  attributes?: ObjectAttributes
}

export interface StoredPart {
  partNumber: number
  /** Quoted upper-case MD5 hex, as the UploadPart answer's ETag header. */
  etag: string
  size: number
  lastModified: Date
  /** CRC-64/ECMA-182 of the part's stored bytes, decimal. */
  crc64?: string
}

export interface UploadPartInput {
  bucket: string
  key: string
  uploadId: string
  partNumber: number
  body: ByteSource
  contentMd5?: string | undefined
  contentLength?: number | undefined
  /** Fault injection: store the byte at this offset inverted. */
  corruptAt?: number | undefined
}

/** One `<Part>` of a CompleteMultipartUpload body. */
export interface CompletePart {
  partNumber: number
  etag: string
}

export interface CompleteInput {
  bucket: string
  key: string
  uploadId: string
  parts: readonly CompletePart[]
  forbidOverwrite?: boolean | undefined
}

export interface ObjectStore {
  put(input: PutInput): Promise<StoredObject>
  head(bucket: string, key: string): Promise<StoredObject | undefined>
  /** Throws `InvalidRange` when the range starts beyond the object. */
  get(bucket: string, key: string, range?: RangeRequest): Promise<ObjectBody | undefined>
  /** Whether there was an object to delete. */
  delete(bucket: string, key: string): Promise<boolean>
  /** Replaces an object's attributes (tags, ACL...) without touching its bytes or Last-Modified; undefined when there is no object. */
  setAttributes(bucket: string, key: string, attributes: ObjectAttributes): Promise<StoredObject | undefined>
  /** Objects, sorted by bucket then key; for inspection. */
  list(filter?: { bucket?: string; prefix?: string }): Promise<StoredObject[]>

  initiateMultipartUpload(input: {
    bucket: string
    key: string
    contentType: string
    metadata?: Record<string, string> | undefined
    attributes?: ObjectAttributes | undefined
  }): Promise<MultipartUpload>
  /** Throws `NoSuchUpload` (unknown id, or the id belongs to another bucket/key). Same number again replaces the part. */
  uploadPart(input: UploadPartInput): Promise<StoredPart>
  /** Parts in ascending number; throws `NoSuchUpload`. */
  listParts(
    bucket: string,
    key: string,
    uploadId: string,
  ): Promise<{ upload: MultipartUpload; parts: StoredPart[] }>
  /**
   * Validates as OSS does (ascending `InvalidPartOrder`, known parts with matching ETags `InvalidPart`,
   * all but the last >= 100 KiB `EntityTooSmall`, none at all `MalformedXML`), then commits the
   * object; the upload is gone afterwards and parts left out are discarded.
   */
  completeMultipartUpload(input: CompleteInput): Promise<StoredObject>
  /** Throws `NoSuchUpload`. */
  abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void>
  /** Uploads in progress, oldest first; for inspection. */
  listMultipartUploads(filter?: { bucket?: string }): Promise<MultipartUpload[]>
}

export type ObjectStoreErrorCode =
  | 'EntityTooSmall'
  | 'FileAlreadyExists'
  | 'IncompleteBody'
  | 'InvalidArgument'
  | 'InvalidDigest'
  | 'InvalidPart'
  | 'InvalidPartOrder'
  | 'InvalidRange'
  | 'MalformedXML'
  | 'NoSuchUpload'

export class ObjectStoreError extends Error {
  override name = 'ObjectStoreError'
  readonly code: ObjectStoreErrorCode
  /** Extra elements of the OSS error body (e.g. PartNumber, ETag). */
  readonly fields: Readonly<Record<string, string>>

  constructor(code: ObjectStoreErrorCode, message?: string, fields: Record<string, string> = {}) {
    super(message ?? code)
    this.code = code
    this.fields = fields
  }
}

/** Every part but the last must be at least this big (OSS: 100 KB). */
export const MIN_PART_SIZE = 100 * 1024
export const MAX_PART_NUMBER = 10_000

/**
 * What `ObjectStore.list` returns of `items`: those in the filter's bucket and under its prefix,
 * by bucket then key, in UTF-8 byte order as OSS lists keys (not locale order).
 */
export function listed<T extends { bucket: string; key: string }>(
  items: Iterable<T>,
  filter: { bucket?: string; prefix?: string },
): T[] {
  const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
  return [...items]
    .filter(
      (o) =>
        (filter.bucket === undefined || o.bucket === filter.bucket) && o.key.startsWith(filter.prefix ?? ''),
    )
    .sort((a, b) => (a.bucket === b.bucket ? compare(a.key, b.key) : compare(a.bucket, b.bucket)))
}

/** What `ObjectStore.listMultipartUploads` returns of `uploads`: those in the filter's bucket, oldest first. */
export function listedUploads(
  uploads: Iterable<MultipartUpload>,
  filter: { bucket?: string },
): MultipartUpload[] {
  return [...uploads]
    .filter((u) => filter.bucket === undefined || u.bucket === filter.bucket)
    .sort((a, b) => a.initiated.getTime() - b.initiated.getTime())
}
