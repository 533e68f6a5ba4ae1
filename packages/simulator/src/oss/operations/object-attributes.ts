import type { QueryParams } from '../protocol/request.ts'
import { sameEtag } from '../store/etag.ts'
import type { ObjectAttributes, StoredObject } from '../store/store.ts'
import { OperationError } from './operation.ts'

/** Standard headers an object keeps from its PUT (or initiate, or copy with REPLACE) and answers with. */
const STORED_HEADERS = [
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'expires',
  'x-oss-server-side-encryption',
  'x-oss-server-side-encryption-key-id',
  'x-oss-server-side-data-encryption',
  'x-oss-storage-class',
]

const STORAGE_CLASSES = ['Standard', 'IA', 'Archive', 'ColdArchive', 'DeepColdArchive']
export const ACLS = ['default', 'private', 'public-read', 'public-read-write']
const ENCRYPTIONS = ['AES256', 'KMS', 'SM4']

/** User metadata (`x-oss-meta-*`, prefix dropped). */
export function userMetadata(headers: Headers): Record<string, string> | undefined {
  const meta: Record<string, string> = {}
  for (const [name, value] of headers) if (name.startsWith('x-oss-meta-')) meta[name.slice(11)] = value
  return Object.keys(meta).length > 0 ? meta : undefined
}

/** The attributes a write request sets: standard headers, ACL, tags; invalid values are InvalidArgument. */
export function attributesFrom(headers: Headers): ObjectAttributes | undefined {
  const kept: Record<string, string> = {}
  for (const name of STORED_HEADERS) {
    const value = headers.get(name)
    if (value !== null) kept[name] = value
  }
  const invalid = (name: string, value: string) =>
    new OperationError('InvalidArgument', `${name} ${value} is not valid.`, {
      ArgumentName: name,
      ArgumentValue: value,
    })
  const storage = kept['x-oss-storage-class']
  if (storage !== undefined && !STORAGE_CLASSES.includes(storage))
    throw invalid('x-oss-storage-class', storage)
  const encryption = kept['x-oss-server-side-encryption']
  if (encryption !== undefined && !ENCRYPTIONS.includes(encryption))
    throw invalid('x-oss-server-side-encryption', encryption)
  const acl = headers.get('x-oss-object-acl') ?? undefined
  if (acl !== undefined && !ACLS.includes(acl)) throw invalid('x-oss-object-acl', acl)
  const tagging = headers.get('x-oss-tagging')
  const tags = tagging === null ? undefined : parseTagging(tagging)
  const attributes: ObjectAttributes = {
    ...(Object.keys(kept).length > 0 ? { headers: kept } : {}),
    ...(acl !== undefined && acl !== 'default' ? { acl } : {}),
    ...(tags && Object.keys(tags).length > 0 ? { tags } : {}),
  }
  return Object.keys(attributes).length > 0 ? attributes : undefined
}

/** `k1=v1&k2=v2` (URL-encoded), as the x-oss-tagging header carries tags. */
function parseTagging(text: string): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const pair of text.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    tags[decode(eq < 0 ? pair : pair.slice(0, eq))] = eq < 0 ? '' : decode(pair.slice(eq + 1))
  }
  return checkTags(tags)
}

/** At most 10 tags, keys 1..128 and values up to 256 characters, as OSS allows. */
export function checkTags(tags: Record<string, string>): Record<string, string> {
  const entries = Object.entries(tags)
  if (entries.length > 10) throw new OperationError('InvalidTag', 'An object can have at most 10 tags.')
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > 128 || value.length > 256)
      throw new OperationError('InvalidTag', 'Tag keys must be 1 to 128 characters and values at most 256.')
  }
  return tags
}

/** What GET and HEAD answer with about an object. */
export function objectHeaders(object: StoredObject, query: QueryParams): Headers {
  const attributes = object.attributes ?? {}
  const headers = new Headers({
    'content-type': object.contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'x-oss-object-type': objectType(object),
    'x-oss-storage-class': 'Standard',
  })
  for (const [name, value] of Object.entries(attributes.headers ?? {})) headers.set(name, value)
  if (attributes.appendable) headers.set('x-oss-next-append-position', String(object.size))
  const tagCount = Object.keys(attributes.tags ?? {}).length
  if (tagCount > 0) headers.set('x-oss-tagging-count', String(tagCount))
  if (object.crc64 !== undefined) headers.set('x-oss-hash-crc64ecma', object.crc64)
  for (const [name, value] of Object.entries(object.metadata ?? {})) headers.set(`x-oss-meta-${name}`, value)
  // Presigned download links set these to name the download, cache it, etc.
  for (const [name, value] of query)
    if (name.startsWith('response-') && value !== '') headers.set(name.slice(9), value)
  return headers
}

/**
 * Conditional headers of GET and HEAD (and, with `prefix` `x-oss-copy-source-`, of a copy's
 * source), checked as OSS does: If-Match and If-Unmodified-Since fail with 412
 * PreconditionFailed, then If-None-Match and If-Modified-Since answer 304 Not Modified.
 * Unparseable dates are ignored.
 */
export function preconditions(
  object: StoredObject,
  headers: Headers,
  prefix = '',
): { code: 'PreconditionFailed' | 'NotModified'; condition: string } | undefined {
  const get = (name: string) => headers.get(`${prefix}${name}`)
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000)
  const time = (text: string | null) => {
    const parsed = text === null ? Number.NaN : Date.parse(text)
    return Number.isNaN(parsed) ? undefined : Math.floor(parsed / 1000)
  }
  const matches = (list: string) =>
    list.split(',').some((tag) => tag.trim() === '*' || sameEtag(tag.trim(), object.etag))
  // A present If-Match (If-None-Match) decides alone; the date applies only without it.
  const ifMatch = get('if-match')
  if (ifMatch !== null && !matches(ifMatch)) return { code: 'PreconditionFailed', condition: 'If-Match' }
  const unmodifiedSince = time(get('if-unmodified-since'))
  if (ifMatch === null && unmodifiedSince !== undefined && seconds(object.lastModified) > unmodifiedSince)
    return { code: 'PreconditionFailed', condition: 'If-Unmodified-Since' }
  const ifNoneMatch = get('if-none-match')
  if (ifNoneMatch !== null && matches(ifNoneMatch)) return { code: 'NotModified', condition: 'If-None-Match' }
  const modifiedSince = time(get('if-modified-since'))
  if (ifNoneMatch === null && modifiedSince !== undefined && seconds(object.lastModified) <= modifiedSince)
    return { code: 'NotModified', condition: 'If-Modified-Since' }
  return undefined
}

/** `Normal`, `Multipart`, `Appendable` or `Symlink`, as OSS reports an object's type. */
export function objectType(object: StoredObject): string {
  if (object.attributes?.symlinkTarget !== undefined) return 'Symlink'
  if (object.attributes?.appendable) return 'Appendable'
  return object.etag.includes('-') ? 'Multipart' : 'Normal'
}
