/** A key the store accepts: an STS credential handed out by sts-tmp, or a long-lived key. */
export interface OssCredential {
  accessKeyId: string
  accessKeySecret: string
  /** STS token; when set, requests must carry a matching x-oss-security-token. */
  securityToken?: string
  /** The only bucket this key may touch. */
  bucket: string
  /** Writes only to keys under this prefix ('' = anywhere); e.g. 'uploads/u-1/'. */
  dir: string
  /**
   * Epoch ms; from then on every request is refused with 403. An STS credential answers
   * `SecurityTokenExpired` (EC 0002-00000007), as real OSS does once the token's own expiry has
   * passed; a long-lived key (no token) answers `InvalidAccessKeyId`, as OSS does for a key that
   * is disabled or gone. Clients must treat both as "get fresh credentials, then resume".
   */
  expiresAt?: number
}

export type OssOperation =
  | 'PutObject'
  | 'GetObject'
  | 'HeadObject'
  | 'DeleteObject'
  | 'InitiateMultipartUpload'
  | 'UploadPart'
  | 'CompleteMultipartUpload'
  | 'AbortMultipartUpload'
  | 'ListParts'
  | 'ListMultipartUploads'
  | 'UploadPartCopy'
  | 'CopyObject'
  | 'AppendObject'
  | 'GetObjectTagging'
  | 'PutObjectTagging'
  | 'DeleteObjectTagging'
  | 'GetObjectAcl'
  | 'PutObjectAcl'
  | 'ListObjects'
  | 'ListObjectsV2'
  | 'DeleteMultipleObjects'
  | 'PostObject'
  | 'PutSymlink'
  | 'GetSymlink'

/** What a request is, as far as it is known before it is authenticated and run. */
export interface OssRequestContext {
  op: OssOperation
  method: string
  bucket: string
  key: string
  /** The key the request claims to be signed with (not yet verified). */
  accessKeyId?: string
  partNumber?: number
  uploadId?: string
}

/** Operations that change data: allowed only under the credential's `dir`. */
export const WRITE_OPERATIONS: ReadonlySet<OssOperation> = new Set([
  'PutObject',
  'DeleteObject',
  'InitiateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'AbortMultipartUpload',
  'UploadPartCopy',
  'CopyObject',
  'AppendObject',
  'PutObjectTagging',
  'DeleteObjectTagging',
  'PutObjectAcl',
  'PutSymlink',
])

/** Listings: their `prefix` must lie under the credential's `dir`, as a prefix-scoped STS policy demands. */
export const LISTING_OPERATIONS: ReadonlySet<OssOperation> = new Set([
  'ListMultipartUploads',
  'ListObjects',
  'ListObjectsV2',
])
