import { emptyBody, webStreamChunks } from '../protocol/body-source.ts'
import { queryValue } from '../protocol/request.ts'
import { contentMd5OfEtag } from '../store/etag.ts'
import { parseRange } from '../store/range.ts'
import type { ByteSource, ObjectAttributes, StoredObject } from '../store/store.ts'
import { attributesFrom, objectHeaders, preconditions, userMetadata } from './object-attributes.ts'
import {
  contentLength,
  DEFAULT_TYPE,
  OperationError,
  type OperationRequest,
  writeHeaders,
  xmlResponse,
} from './operation.ts'

async function putObject(r: OperationRequest): Promise<Response> {
  const object = await r.store.put({
    bucket: r.bucket,
    key: r.key,
    contentType: r.headers.get('content-type') || DEFAULT_TYPE,
    body: r.body(),
    contentMd5: r.headers.get('content-md5') ?? undefined,
    contentLength: contentLength(r.headers),
    metadata: userMetadata(r.headers),
    attributes: attributesFrom(r.headers),
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
    corruptAt: r.corruptAt,
  })
  return new Response(null, { headers: { ...writeHeaders(object), 'content-length': '0' } })
}

/** OSS names the condition that failed in a `Condition` element (ali-oss adds it to the message). */
const preconditionFailed = (condition: string) =>
  new OperationError('PreconditionFailed', undefined, { Condition: condition })

/** 304 (ETag and Last-Modified only) or a thrown 412 when the request's conditions say so. */
function conditional(object: StoredObject, headers: Headers): Response | undefined {
  const outcome = preconditions(object, headers)
  if (outcome?.code === 'PreconditionFailed') throw preconditionFailed(outcome.condition)
  if (outcome?.code === 'NotModified')
    return new Response(null, {
      status: 304,
      headers: { etag: object.etag, 'last-modified': object.lastModified.toUTCString() },
    })
  return undefined
}

/**
 * The object a GET or HEAD serves: the key's own, or for a symlink its target's bytes under the
 * link's metadata (`x-oss-object-type: Symlink`). A link to a link is InvalidTargetType.
 */
async function resolve(r: OperationRequest): Promise<{ object: StoredObject; key: string }> {
  const object = await r.store.head(r.bucket, r.key)
  if (!object) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  const target = object.attributes?.symlinkTarget
  if (target === undefined) return { object, key: r.key }
  const found = await r.store.head(r.bucket, target)
  if (!found)
    throw new OperationError('NoSuchKey', 'The symlink target object does not exist.', { Key: target })
  if (found.attributes?.symlinkTarget !== undefined) throw new OperationError('InvalidTargetType')
  const { metadata, attributes } = object
  return {
    key: target,
    object: { ...found, ...(metadata ? { metadata } : {}), ...(attributes ? { attributes } : {}) },
  }
}

/** What GET and HEAD answer about a whole object. */
function wholeObjectHeaders(object: StoredObject, r: OperationRequest): Headers {
  const headers = objectHeaders(object, r.query)
  headers.set('content-length', String(object.size))
  const md5 = contentMd5OfEtag(object.etag)
  if (md5) headers.set('content-md5', md5)
  return headers
}

async function getObject(r: OperationRequest): Promise<Response> {
  const { object, key } = await resolve(r)
  const early = conditional(object, r.headers)
  if (early) return early
  const found = await r.store.get(r.bucket, key, parseRange(r.headers.get('range')))
  if (!found) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  const { body, range } = found
  if (!range) return new Response(body, { headers: wholeObjectHeaders(object, r) })
  const headers = objectHeaders(object, r.query)
  headers.set('content-length', String(range.end - range.start + 1))
  headers.set('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
  return new Response(body, { status: 206, headers })
}

async function headObject(r: OperationRequest): Promise<Response> {
  const { object } = await resolve(r)
  const early = conditional(object, r.headers)
  if (early) return early
  return new Response(null, { headers: wholeObjectHeaders(object, r) })
}

/** PutSymlink (`PUT ?symlink`, target in `x-oss-symlink-target`): an empty object that points. */
async function putSymlink(r: OperationRequest): Promise<Response> {
  const header = r.headers.get('x-oss-symlink-target') ?? ''
  let target: string
  try {
    target = decodeURIComponent(header)
  } catch {
    target = ''
  }
  if (target === '')
    throw new OperationError('InvalidArgument', 'x-oss-symlink-target must name an object.', {
      ArgumentName: 'x-oss-symlink-target',
      ArgumentValue: header,
    })
  const object = await r.store.put({
    bucket: r.bucket,
    key: r.key,
    contentType: r.headers.get('content-type') || DEFAULT_TYPE,
    body: emptyBody(),
    metadata: userMetadata(r.headers),
    attributes: { ...attributesFrom(r.headers), symlinkTarget: target },
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
  })
  return new Response(null, { headers: { etag: object.etag, 'content-length': '0' } })
}

/** GetSymlink (`GET ?symlink`): the target in `x-oss-symlink-target`; NotSymlink for other objects. */
async function getSymlink(r: OperationRequest): Promise<Response> {
  const object = await r.store.head(r.bucket, r.key)
  if (!object) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  const target = object.attributes?.symlinkTarget
  if (target === undefined) throw new OperationError('NotSymlink')
  const headers = new Headers({
    'x-oss-symlink-target': encodeURIComponent(target),
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'content-length': '0',
  })
  for (const [name, value] of Object.entries(object.metadata ?? {})) headers.set(`x-oss-meta-${name}`, value)
  return new Response(null, { headers })
}

async function deleteObject(r: OperationRequest): Promise<Response> {
  // OSS answers 204 whether or not there was an object.
  await r.store.delete(r.bucket, r.key)
  return new Response(null, { status: 204 })
}

/** `/bucket/key` (key URL-encoded) of x-oss-copy-source, resolved in this bucket. */
export async function copySource(r: OperationRequest): Promise<StoredObject> {
  const header = r.headers.get('x-oss-copy-source') ?? ''
  const match = /^\/?([^/]+)\/(.+)$/.exec(header.split('?')[0] ?? '')
  let key: string | undefined
  try {
    key = match ? decodeURIComponent(match[2] as string) : undefined
  } catch {
    key = undefined
  }
  if (!match || key === undefined)
    throw new OperationError('InvalidArgument', 'x-oss-copy-source must be /bucket/key.', {
      ArgumentName: 'x-oss-copy-source',
      ArgumentValue: header,
    })
  if (match[1] !== r.bucket)
    throw new OperationError('AccessDenied', 'The simulator copies within its one bucket only.')
  const source = await r.store.head(r.bucket, key)
  if (!source) throw new OperationError('NoSuchKey', undefined, { Key: key })
  const outcome = preconditions(source, r.headers, 'x-oss-copy-source-')
  if (outcome?.code === 'PreconditionFailed') throw preconditionFailed(outcome.condition)
  if (outcome) throw new OperationError(outcome.code)
  return source
}

async function bodyOf(r: OperationRequest, key: string): Promise<ByteSource> {
  const found = await r.store.get(r.bucket, key)
  if (!found) throw new OperationError('NoSuchKey', undefined, { Key: key })
  return webStreamChunks(found.body)
}

/**
 * CopyObject: the source's bytes under the target key; metadata, Content-Type and standard
 * headers copied (`x-oss-metadata-directive: COPY`, the default) or taken from the request
 * (`REPLACE`), tags likewise with `x-oss-tagging-directive`.
 */
async function copyObject(r: OperationRequest): Promise<Response> {
  let source: StoredObject
  try {
    source = await copySource(r)
  } catch (error) {
    if (error instanceof OperationError && error.code === 'NotModified')
      return new Response(null, { status: 304 })
    throw error
  }
  const replace = r.headers.get('x-oss-metadata-directive')?.toUpperCase() === 'REPLACE'
  const replaceTags = r.headers.get('x-oss-tagging-directive')?.toUpperCase() === 'REPLACE'
  const given = attributesFrom(r.headers) ?? {}
  const kept = source.attributes ?? {}
  const headers = replace ? given.headers : kept.headers
  const tags = replaceTags ? given.tags : kept.tags
  const attributes: ObjectAttributes = {
    ...(headers ? { headers } : {}),
    ...(given.acl ? { acl: given.acl } : {}),
    ...(tags ? { tags } : {}),
  }
  const object = await r.store.put({
    bucket: r.bucket,
    key: r.key,
    contentType: replace ? r.headers.get('content-type') || DEFAULT_TYPE : source.contentType,
    body: await bodyOf(r, source.key),
    metadata: replace ? userMetadata(r.headers) : source.metadata,
    attributes,
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
  })
  return xmlResponse(
    'CopyObjectResult',
    [
      ['ETag', object.etag],
      ['LastModified', object.lastModified.toISOString()],
    ],
    writeHeaders(object),
  )
}

async function* concat(...sources: ByteSource[]): ByteSource {
  for (const source of sources) yield* source
}

/**
 * AppendObject (`POST ?append&position=N`): creates an Appendable object at position 0 and
 * extends it at its current length; any other position is PositionNotEqualToLength, a Normal or
 * Multipart object ObjectNotAppendable. The object is rewritten whole: fine for a simulator.
 */
async function appendObject(r: OperationRequest): Promise<Response> {
  const text = queryValue(r.query, 'position') ?? ''
  if (!/^\d+$/.test(text))
    throw new OperationError('InvalidArgument', 'position must be a non-negative integer.', {
      ArgumentName: 'position',
      ArgumentValue: text,
    })
  const position = Number(text)
  const existing = await r.store.head(r.bucket, r.key)
  if (existing && !existing.attributes?.appendable) throw new OperationError('ObjectNotAppendable')
  const length = existing?.size ?? 0
  if (position !== length)
    throw new OperationError(
      'PositionNotEqualToLength',
      undefined,
      {},
      { 'x-oss-next-append-position': String(length) },
    )
  const object = await r.store.put(
    existing
      ? {
          bucket: r.bucket,
          key: r.key,
          contentType: existing.contentType,
          body: concat(await bodyOf(r, r.key), r.body()),
          ...(existing.metadata ? { metadata: existing.metadata } : {}),
          ...(existing.attributes ? { attributes: existing.attributes } : {}),
        }
      : {
          bucket: r.bucket,
          key: r.key,
          contentType: r.headers.get('content-type') || DEFAULT_TYPE,
          body: r.body(),
          contentMd5: r.headers.get('content-md5') ?? undefined,
          contentLength: contentLength(r.headers),
          metadata: userMetadata(r.headers),
          attributes: { ...attributesFrom(r.headers), appendable: true },
        },
  )
  const { 'content-md5': _, ...headers } = writeHeaders(object)
  return new Response(null, {
    headers: { ...headers, 'content-length': '0', 'x-oss-next-append-position': String(object.size) },
  })
}

export const OBJECT_OPERATIONS = {
  PutObject: putObject,
  GetObject: getObject,
  HeadObject: headObject,
  DeleteObject: deleteObject,
  CopyObject: copyObject,
  AppendObject: appendObject,
  PutSymlink: putSymlink,
  GetSymlink: getSymlink,
}
