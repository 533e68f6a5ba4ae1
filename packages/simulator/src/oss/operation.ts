import { contentMd5OfEtag } from './etag.ts'
import type { QueryParams } from './request.ts'
import type { ByteSource, ObjectStore } from './store.ts'
import { type XmlNode, xmlDocument } from './xml.ts'

/** Everything an operation needs about its request, parsed and authenticated. */
export interface OperationRequest {
  store: ObjectStore
  bucket: string
  key: string
  query: QueryParams
  headers: Headers
  /** The body, read as it arrives; call once. */
  body(): ByteSource
  /** `http://host` the client used, for Location. */
  origin: string
  /** The prefix the credential may write under ('' = anywhere). */
  dir: string
  /** Fault injection: store the body's byte at this offset inverted. */
  corruptAt?: number | undefined
}

export type Operation = (request: OperationRequest) => Promise<Response>

export type OperationErrorCode =
  | 'AccessDenied'
  | 'InvalidArgument'
  | 'InvalidDigest'
  | 'InvalidRequest'
  | 'InvalidTargetType'
  | 'MalformedXML'
  | 'NoSuchKey'
  | 'ObjectNotAppendable'
  | 'PositionNotEqualToLength'
  | 'PreconditionFailed'
  | 'NotModified'
  | 'InvalidTag'

/** An OSS error raised by an operation before or after the store ran. */
export class OperationError extends Error {
  override name = 'OperationError'
  readonly code: OperationErrorCode
  readonly fields: Readonly<Record<string, string>>

  constructor(code: OperationErrorCode, message?: string, fields: Record<string, string> = {}) {
    super(message ?? code)
    this.code = code
    this.fields = fields
  }
}

export const DEFAULT_TYPE = 'application/octet-stream'

/** An XML answer. */
export function xmlResponse(
  root: string,
  children: ReadonlyArray<XmlNode | undefined>,
  headers: Record<string, string> = {},
): Response {
  return new Response(xmlDocument(root, children), {
    headers: { 'content-type': 'application/xml', ...headers },
  })
}

export function contentLength(headers: Headers): number | undefined {
  const text = headers.get('content-length')
  return text !== null && /^\d+$/.test(text) ? Number(text) : undefined
}

/** The headers every write answers with: ETag, Content-MD5 when single-piece, the CRC. */
export function writeHeaders(written: { etag: string; crc64?: string | undefined }): Record<string, string> {
  const headers: Record<string, string> = { etag: written.etag }
  const md5 = contentMd5OfEtag(written.etag)
  if (md5) headers['content-md5'] = md5
  if (written.crc64 !== undefined) headers['x-oss-hash-crc64ecma'] = written.crc64
  return headers
}
