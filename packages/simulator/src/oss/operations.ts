import { readSmallBody } from './body-source.ts'
import type { OssOperation } from './credentials.ts'
import { contentMd5OfEtag } from './etag.ts'
import { parseRange } from './range.ts'
import { type QueryParams, queryValue } from './request.ts'
import { SUB_RESOURCES } from './sign-v1.ts'
import { encodeRfc3986 } from './sign-v4.ts'
import {
  type ByteSource,
  type CompletePart,
  MAX_PART_NUMBER,
  type ObjectStore,
  type StoredObject,
} from './store.ts'
import { parseXml, type XmlElement, type XmlNode, XmlSyntaxError, xmlDocument } from './xml.ts'

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
}

/** An OSS error raised by an operation before or after the store ran. */
export class OperationError extends Error {
  override name = 'OperationError'
  readonly code: 'InvalidArgument' | 'MalformedXML' | 'NoSuchKey'
  readonly fields: Readonly<Record<string, string>>

  constructor(code: OperationError['code'], message?: string, fields: Record<string, string> = {}) {
    super(message ?? code)
    this.code = code
    this.fields = fields
  }
}

const DEFAULT_TYPE = 'application/octet-stream'
const XML_TYPE = 'application/xml'
/** 10,000 parts of a CompleteMultipartUpload document fit well within this. */
const MAX_COMPLETE_BODY = 4 * 1024 * 1024

const xml = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': XML_TYPE, ...headers } })

/** The part number of an UploadPart, validated as OSS does (an integer in 1..10000). */
export function partNumberOf(query: QueryParams): number | undefined {
  const text = queryValue(query, 'partNumber')
  if (text === undefined || !/^\d+$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 && n <= MAX_PART_NUMBER ? n : undefined
}

function userMetadata(headers: Headers): Record<string, string> | undefined {
  const meta: Record<string, string> = {}
  for (const [name, value] of headers) if (name.startsWith('x-oss-meta-')) meta[name.slice(11)] = value
  return Object.keys(meta).length > 0 ? meta : undefined
}

function contentLength(headers: Headers): number | undefined {
  const text = headers.get('content-length')
  return text !== null && /^\d+$/.test(text) ? Number(text) : undefined
}

function objectHeaders(object: StoredObject, query: QueryParams): Headers {
  const headers = new Headers({
    'content-type': object.contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'x-oss-object-type': object.etag.includes('-') ? 'Multipart' : 'Normal',
    'x-oss-storage-class': 'Standard',
  })
  for (const [name, value] of Object.entries(object.metadata ?? {})) headers.set(`x-oss-meta-${name}`, value)
  // Presigned download links set these to name the download, cache it, etc.
  for (const [name, value] of query)
    if (name.startsWith('response-') && value !== '') headers.set(name.slice(9), value)
  return headers
}

async function putObject(r: OperationRequest): Promise<Response> {
  const object = await r.store.put({
    bucket: r.bucket,
    key: r.key,
    contentType: r.headers.get('content-type') || DEFAULT_TYPE,
    body: r.body(),
    contentMd5: r.headers.get('content-md5') ?? undefined,
    contentLength: contentLength(r.headers),
    metadata: userMetadata(r.headers),
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
  })
  const headers: Record<string, string> = { etag: object.etag, 'content-length': '0' }
  const md5 = contentMd5OfEtag(object.etag)
  if (md5) headers['content-md5'] = md5
  return new Response(null, { headers })
}

async function getObject(r: OperationRequest): Promise<Response> {
  const found = await r.store.get(r.bucket, r.key, parseRange(r.headers.get('range')))
  if (!found) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  const { object, body, range } = found
  const headers = objectHeaders(object, r.query)
  if (range) {
    headers.set('content-length', String(range.end - range.start + 1))
    headers.set('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
    return new Response(body, { status: 206, headers })
  }
  headers.set('content-length', String(object.size))
  const md5 = contentMd5OfEtag(object.etag)
  if (md5) headers.set('content-md5', md5)
  return new Response(body, { headers })
}

async function headObject(r: OperationRequest): Promise<Response> {
  const object = await r.store.head(r.bucket, r.key)
  if (!object) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  const headers = objectHeaders(object, r.query)
  headers.set('content-length', String(object.size))
  const md5 = contentMd5OfEtag(object.etag)
  if (md5) headers.set('content-md5', md5)
  return new Response(null, { headers })
}

async function deleteObject(r: OperationRequest): Promise<Response> {
  // OSS answers 204 whether or not there was an object.
  await r.store.delete(r.bucket, r.key)
  return new Response(null, { status: 204 })
}

async function initiateMultipartUpload(r: OperationRequest): Promise<Response> {
  const upload = await r.store.initiateMultipartUpload({
    bucket: r.bucket,
    key: r.key,
    contentType: r.headers.get('content-type') || DEFAULT_TYPE,
    metadata: userMetadata(r.headers),
  })
  return xml(
    xmlDocument('InitiateMultipartUploadResult', [
      ['Bucket', upload.bucket],
      ['Key', upload.key],
      ['UploadId', upload.uploadId],
    ]),
  )
}

async function uploadPart(r: OperationRequest): Promise<Response> {
  const partNumber = partNumberOf(r.query)
  if (partNumber === undefined) {
    throw new OperationError(
      'InvalidArgument',
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive.`,
      {
        ArgumentName: 'partNumber',
        ArgumentValue: queryValue(r.query, 'partNumber') ?? '',
      },
    )
  }
  const part = await r.store.uploadPart({
    bucket: r.bucket,
    key: r.key,
    uploadId: queryValue(r.query, 'uploadId') ?? '',
    partNumber,
    body: r.body(),
    contentMd5: r.headers.get('content-md5') ?? undefined,
    contentLength: contentLength(r.headers),
  })
  const headers: Record<string, string> = { etag: part.etag, 'content-length': '0' }
  const md5 = contentMd5OfEtag(part.etag)
  if (md5) headers['content-md5'] = md5
  return new Response(null, { headers })
}

/** `<CompleteMultipartUpload><Part><PartNumber/><ETag/></Part>...`; anything else is MalformedXML. */
export function parseCompleteBody(text: string): CompletePart[] {
  let root: XmlElement
  try {
    root = parseXml(text)
  } catch (error) {
    if (error instanceof XmlSyntaxError)
      throw new OperationError('MalformedXML', undefined, { Detail: error.message })
    throw error
  }
  if (root.name !== 'CompleteMultipartUpload') throw new OperationError('MalformedXML')
  return root.children.map((part) => {
    const field = (name: string) => {
      const found = part.children.filter((c) => c.name === name)
      return found.length === 1 ? (found[0] as XmlElement).text.trim() : undefined
    }
    const number = field('PartNumber')
    const etag = field('ETag')
    if (part.name !== 'Part' || number === undefined || !/^\d+$/.test(number) || etag === undefined) {
      throw new OperationError('MalformedXML')
    }
    return { partNumber: Number(number), etag }
  })
}

async function completeMultipartUpload(r: OperationRequest): Promise<Response> {
  const uploadId = queryValue(r.query, 'uploadId') ?? ''
  const raw = await readSmallBody(r.body(), MAX_COMPLETE_BODY)
  if (raw === undefined)
    throw new OperationError('MalformedXML', 'The CompleteMultipartUpload document is too large.')
  let parts: readonly CompletePart[]
  if (r.headers.get('x-oss-complete-all')?.toLowerCase() === 'yes') {
    if (raw.length > 0)
      throw new OperationError('InvalidArgument', 'x-oss-complete-all does not take a body.')
    const listed = await r.store.listParts(r.bucket, r.key, uploadId)
    parts = listed.parts
  } else {
    parts = parseCompleteBody(raw.toString('utf8'))
  }
  const object = await r.store.completeMultipartUpload({
    bucket: r.bucket,
    key: r.key,
    uploadId,
    parts,
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
  })
  return xml(
    xmlDocument('CompleteMultipartUploadResult', [
      ['Location', `${r.origin}/${encodeRfc3986(object.key).replace(/%2F/g, '/')}`],
      ['Bucket', object.bucket],
      ['Key', object.key],
      ['ETag', object.etag],
    ]),
    { etag: object.etag },
  )
}

async function abortMultipartUpload(r: OperationRequest): Promise<Response> {
  await r.store.abortMultipartUpload(r.bucket, r.key, queryValue(r.query, 'uploadId') ?? '')
  return new Response(null, { status: 204 })
}

async function listParts(r: OperationRequest): Promise<Response> {
  const maxText = queryValue(r.query, 'max-parts') ?? '1000'
  const markerText = queryValue(r.query, 'part-number-marker') ?? '0'
  if (!/^\d+$/.test(maxText) || Number(maxText) < 1 || Number(maxText) > 1000 || !/^\d+$/.test(markerText)) {
    throw new OperationError('InvalidArgument', 'max-parts must be 1..1000 and part-number-marker a number.')
  }
  const max = Number(maxText)
  const marker = Number(markerText)
  const { upload, parts } = await r.store.listParts(r.bucket, r.key, queryValue(r.query, 'uploadId') ?? '')
  const after = parts.filter((p) => p.partNumber > marker)
  const page = after.slice(0, max)
  const next = page.at(-1)?.partNumber ?? marker
  const nodes: XmlNode[] = [
    ['Bucket', upload.bucket],
    ['Key', upload.key],
    ['UploadId', upload.uploadId],
    ['PartNumberMarker', marker],
    ['NextPartNumberMarker', next],
    ['MaxParts', max],
    ['IsTruncated', after.length > page.length],
    ...page.map(
      (p): XmlNode => [
        'Part',
        [
          ['PartNumber', p.partNumber],
          ['LastModified', p.lastModified.toISOString()],
          ['ETag', p.etag],
          ['Size', p.size],
        ],
      ],
    ),
  ]
  return xml(xmlDocument('ListPartsResult', nodes))
}

export const OPERATIONS: Record<OssOperation, (request: OperationRequest) => Promise<Response>> = {
  PutObject: putObject,
  GetObject: getObject,
  HeadObject: headObject,
  DeleteObject: deleteObject,
  InitiateMultipartUpload: initiateMultipartUpload,
  UploadPart: uploadPart,
  CompleteMultipartUpload: completeMultipartUpload,
  AbortMultipartUpload: abortMultipartUpload,
  ListParts: listParts,
}

/** Which operation a request is: by method and sub-resource, as OSS routes it. */
export function identify(
  method: string,
  key: string,
  query: QueryParams,
  headers: Headers,
):
  | { op: OssOperation }
  | { code: 'MethodNotAllowed' | 'NotImplemented' | 'InvalidArgument'; message: string } {
  const has = (name: string) => query.some(([n]) => n === name)
  if (key === '')
    return {
      code: 'NotImplemented',
      message: 'The simulator implements object operations only, not bucket or service ones.',
    }
  const notImplemented = (what: string) => ({
    code: 'NotImplemented' as const,
    message: `${what} is not implemented by the simulator.`,
  })
  // Sub-resources the simulator does not implement must not fall through to a plain GET or PUT.
  const known = new Set(['uploads', 'uploadId', 'partNumber', 'objectMeta', 'security-token'])
  const unknown = query.find(
    ([name]) => SUB_RESOURCES.has(name) && !known.has(name) && !name.startsWith('response-'),
  )
  if (unknown) return notImplemented(`Sub-resource ${unknown[0]}`)
  switch (method) {
    case 'HEAD':
      return { op: 'HeadObject' }
    case 'GET':
      return { op: has('uploadId') ? 'ListParts' : 'GetObject' }
    case 'PUT':
      if (headers.has('x-oss-copy-source')) return notImplemented('CopyObject')
      if (has('partNumber') || has('uploadId')) {
        if (!has('uploadId')) return { code: 'InvalidArgument', message: 'UploadPart needs an uploadId.' }
        return { op: 'UploadPart' }
      }
      return { op: 'PutObject' }
    case 'POST':
      if (has('uploads')) return { op: 'InitiateMultipartUpload' }
      if (has('uploadId')) return { op: 'CompleteMultipartUpload' }
      return notImplemented('This POST')
    case 'DELETE':
      return { op: has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject' }
    default:
      return { code: 'MethodNotAllowed', message: `${method} is not allowed against this resource.` }
  }
}
