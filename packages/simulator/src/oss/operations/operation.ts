import type { AuthOptions } from '../protocol/auth.ts'
import { readSmallBody } from '../protocol/body-source.ts'
import type { QueryParams } from '../protocol/request.ts'
import { parseXml, type XmlElement, type XmlNode, XmlSyntaxError, xmlDocument } from '../protocol/xml.ts'
import { contentMd5OfEtag } from '../store/etag.ts'
import type { ByteSource, ObjectAttributes, ObjectStore } from '../store/store.ts'

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
  /** How to check a signature the operation finds in its body (PostObject's form). */
  auth: AuthOptions
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
  | 'NotSymlink'

/** An OSS error raised by an operation before or after the store ran. */
export class OperationError extends Error {
  override name = 'OperationError'
  readonly code: OperationErrorCode
  readonly fields: Readonly<Record<string, string>>
  /** Response headers the error answer carries (e.g. x-oss-next-append-position). */
  readonly headers: Readonly<Record<string, string>>

  constructor(
    code: OperationErrorCode,
    message?: string,
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    super(message ?? code)
    this.code = code
    this.fields = fields
    this.headers = headers
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

/** The server-side encryption an object or upload was written with, as OSS echoes it. */
export function encryptionHeaders(attributes: ObjectAttributes | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attributes?.headers ?? {}).filter(([name]) => name.startsWith('x-oss-server-side-')),
  )
}

/** The headers every write answers with: ETag, Content-MD5 when single-piece, the CRC, the encryption. */
export function writeHeaders(written: {
  etag: string
  crc64?: string | undefined
  attributes?: ObjectAttributes | undefined
}): Record<string, string> {
  const headers: Record<string, string> = { etag: written.etag, ...encryptionHeaders(written.attributes) }
  const md5 = contentMd5OfEtag(written.etag)
  if (md5) headers['content-md5'] = md5
  if (written.crc64 !== undefined) headers['x-oss-hash-crc64ecma'] = written.crc64
  return headers
}

/** A small XML request body, read whole; larger than `max` or not well-formed is MalformedXML. */
export async function readXml(r: OperationRequest, max: number): Promise<XmlElement> {
  return parseXmlBody(await readSmall(r, max))
}

/** A small body, read whole; larger than `max` is MalformedXML (every small body is an XML document). */
export async function readSmall(r: OperationRequest, max: number): Promise<Buffer> {
  const raw = await readSmallBody(r.body(), max)
  if (raw === undefined) throw new OperationError('MalformedXML', 'The XML document is too large.')
  return raw
}

export function parseXmlBody(raw: Buffer): XmlElement {
  try {
    return parseXml(raw.toString('utf8'))
  } catch (error) {
    if (error instanceof XmlSyntaxError)
      throw new OperationError('MalformedXML', undefined, { Detail: error.message })
    throw error
  }
}

/** The text of the first child element called `name`, or undefined. */
export function childText(element: XmlElement, name: string): string | undefined {
  return element.children.find((c) => c.name === name)?.text
}
