import { contentMd5OfEtag } from './etag.ts'
import {
  contentLength,
  DEFAULT_TYPE,
  OperationError,
  type OperationRequest,
  writeHeaders,
} from './operation.ts'
import { parseRange } from './range.ts'
import type { QueryParams } from './request.ts'
import type { StoredObject } from './store.ts'

/** User metadata (`x-oss-meta-*`, prefix dropped). */
export function userMetadata(headers: Headers): Record<string, string> | undefined {
  const meta: Record<string, string> = {}
  for (const [name, value] of headers) if (name.startsWith('x-oss-meta-')) meta[name.slice(11)] = value
  return Object.keys(meta).length > 0 ? meta : undefined
}

/** What GET and HEAD answer with about an object. */
export function objectHeaders(object: StoredObject, query: QueryParams): Headers {
  const headers = new Headers({
    'content-type': object.contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'x-oss-object-type': object.etag.includes('-') ? 'Multipart' : 'Normal',
    'x-oss-storage-class': 'Standard',
  })
  if (object.crc64 !== undefined) headers.set('x-oss-hash-crc64ecma', object.crc64)
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
    corruptAt: r.corruptAt,
  })
  return new Response(null, { headers: { ...writeHeaders(object), 'content-length': '0' } })
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

export const OBJECT_OPERATIONS = {
  PutObject: putObject,
  GetObject: getObject,
  HeadObject: headObject,
  DeleteObject: deleteObject,
}
