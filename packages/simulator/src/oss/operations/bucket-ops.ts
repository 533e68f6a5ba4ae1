import { createHash } from 'node:crypto'
import { queryValue } from '../protocol/request.ts'
import type { XmlNode } from '../protocol/xml.ts'
import type { StoredObject } from '../store/store.ts'
import { byteOrder, limitOf, page } from './listing.ts'
import { objectType } from './object-attributes.ts'
import {
  childText,
  OperationError,
  type OperationRequest,
  parseXmlBody,
  readSmall,
  xmlResponse,
} from './operation.ts'

const OWNER: XmlNode = [
  'Owner',
  [
    ['ID', '1000000000000000'],
    ['DisplayName', 'service-sim'],
  ],
]
const MAX_DELETE_KEYS = 1000
const MAX_DELETE_BODY = 2 * 1024 * 1024

/** With `encoding-type=url`, names travel URL-encoded (keys may hold characters XML cannot). */
function encoder(r: OperationRequest): (name: string) => string {
  return queryValue(r.query, 'encoding-type') === 'url' ? (name) => encodeURIComponent(name) : (name) => name
}

function contents(object: StoredObject, encode: (name: string) => string, owner: boolean): XmlNode {
  return [
    'Contents',
    [
      ['Key', encode(object.key)],
      ['LastModified', object.lastModified.toISOString()],
      ['ETag', object.etag],
      ['Type', objectType(object)],
      ['Size', object.size],
      ['StorageClass', object.attributes?.headers?.['x-oss-storage-class'] ?? 'Standard'],
      owner ? OWNER : undefined,
    ],
  ]
}

/** The listing both versions share: objects under `prefix` strictly after `marker`. */
async function listing(r: OperationRequest, marker: string) {
  const prefix = queryValue(r.query, 'prefix') ?? ''
  const delimiter = queryValue(r.query, 'delimiter') ?? ''
  const max = limitOf(r.query, 'max-keys', 100, 1000)
  const objects = (await r.store.list({ bucket: r.bucket, prefix })).filter(
    (o) => byteOrder(o.key, marker) > 0,
  )
  return { prefix, delimiter, max, ...page(objects, (o) => o.key, { prefix, delimiter, max, marker }) }
}

/** ListObjects (`GET /`): `prefix`, `marker`, `delimiter`, `max-keys` (default 100), `encoding-type`. */
async function listObjects(r: OperationRequest): Promise<Response> {
  const encode = encoder(r)
  const marker = queryValue(r.query, 'marker') ?? ''
  const { prefix, delimiter, max, entries, prefixes, truncated, last } = await listing(r, marker)
  return xmlResponse('ListBucketResult', [
    ['Name', r.bucket],
    ['Prefix', encode(prefix)],
    ['Marker', encode(marker)],
    ['MaxKeys', max],
    ['Delimiter', encode(delimiter)],
    queryValue(r.query, 'encoding-type') === 'url' ? ['EncodingType', 'url'] : undefined,
    ['IsTruncated', truncated],
    truncated && last ? ['NextMarker', encode(last.name)] : undefined,
    ...entries.map((o) => contents(o, encode, true)),
    ...prefixes.map((p): XmlNode => ['CommonPrefixes', [['Prefix', encode(p)]]]),
  ])
}

/** V2 continuation tokens: the last name listed, opaque to clients. */
const token = {
  encode: (name: string) => Buffer.from(name).toString('base64url'),
  decode: (text: string) => Buffer.from(text, 'base64url').toString('utf8'),
}

/** ListObjectsV2 (`GET /?list-type=2`): `continuation-token`, `start-after`, `fetch-owner`, KeyCount. */
async function listObjectsV2(r: OperationRequest): Promise<Response> {
  const encode = encoder(r)
  const continuation = queryValue(r.query, 'continuation-token')
  const startAfter = queryValue(r.query, 'start-after') ?? ''
  const marker = continuation ? token.decode(continuation) : startAfter
  const { prefix, delimiter, max, entries, prefixes, truncated, last } = await listing(r, marker)
  const owner = queryValue(r.query, 'fetch-owner') === 'true'
  return xmlResponse('ListBucketResult', [
    ['Name', r.bucket],
    ['Prefix', encode(prefix)],
    continuation ? ['ContinuationToken', continuation] : undefined,
    startAfter ? ['StartAfter', encode(startAfter)] : undefined,
    ['MaxKeys', max],
    ['Delimiter', encode(delimiter)],
    queryValue(r.query, 'encoding-type') === 'url' ? ['EncodingType', 'url'] : undefined,
    ['IsTruncated', truncated],
    truncated && last ? ['NextContinuationToken', token.encode(last.name)] : undefined,
    ['KeyCount', entries.length + prefixes.length],
    ...entries.map((o) => contents(o, encode, owner)),
    ...prefixes.map((p): XmlNode => ['CommonPrefixes', [['Prefix', encode(p)]]]),
  ])
}

/**
 * DeleteMultipleObjects (`POST /?delete`): `<Delete><Quiet/><Object><Key/></Object>...</Delete>`
 * with its Content-MD5, at most 1000 keys, every one under the credential's `dir` (otherwise
 * the whole request is AccessDenied and nothing is deleted). Keys that do not exist count as deleted.
 */
async function deleteMultipleObjects(r: OperationRequest): Promise<Response> {
  const raw = await readSmall(r, MAX_DELETE_BODY)
  const md5 = r.headers.get('content-md5')
  if (md5 !== null && createHash('md5').update(raw).digest('base64') !== md5.trim())
    throw new OperationError('InvalidDigest')
  const root = parseXmlBody(raw)
  if (root.name !== 'Delete') throw new OperationError('MalformedXML')
  const keys = root.children
    .filter((c) => c.name === 'Object')
    .map((o) => {
      const key = childText(o, 'Key')
      if (key === undefined || key === '') throw new OperationError('MalformedXML')
      return queryValue(r.query, 'encoding-type') === 'url' ? decodeURIComponent(key) : key
    })
  if (keys.length === 0 || keys.length > MAX_DELETE_KEYS)
    throw new OperationError('MalformedXML', `Give 1 to ${MAX_DELETE_KEYS} keys.`)
  const outside = keys.find((key) => !key.startsWith(r.dir))
  if (outside !== undefined)
    throw new OperationError(
      'AccessDenied',
      `Access denied by authorizer's policy: ${outside} is outside ${r.dir}.`,
    )
  for (const key of keys) await r.store.delete(r.bucket, key)
  const quiet = childText(root, 'Quiet')?.trim().toLowerCase() === 'true'
  const encode = encoder(r)
  return xmlResponse('DeleteResult', [
    queryValue(r.query, 'encoding-type') === 'url' ? ['EncodingType', 'url'] : undefined,
    ...(quiet ? [] : keys.map((key): XmlNode => ['Deleted', [['Key', encode(key)]]])),
  ])
}

export const BUCKET_OPERATIONS = {
  ListObjects: listObjects,
  ListObjectsV2: listObjectsV2,
  DeleteMultipleObjects: deleteMultipleObjects,
}
