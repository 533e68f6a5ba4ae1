import { createHmac } from 'node:crypto'
import { headerText, type QueryParams } from './request.ts'

/**
 * Query parameters that OSS counts as sub-resources: only these enter the V1 canonical resource
 * (and a GET or PUT carrying one the simulator does not implement is refused, not silently served).
 */
export const SUB_RESOURCES: ReadonlySet<string> = new Set([
  'acl',
  'append',
  'bucketInfo',
  'callback',
  'callback-var',
  'cname',
  'comp',
  'continuation-token',
  'cors',
  'delete',
  'encryption',
  'endTime',
  'img',
  'inventory',
  'inventoryId',
  'lifecycle',
  'live',
  'location',
  'logging',
  'objectMeta',
  'partNumber',
  'policy',
  'position',
  'qos',
  'referer',
  'replication',
  'replicationLocation',
  'replicationProgress',
  'requestPayment',
  'response-cache-control',
  'response-content-disposition',
  'response-content-encoding',
  'response-content-language',
  'response-content-type',
  'response-expires',
  'restore',
  'security-token',
  'sequential',
  'startTime',
  'stat',
  'status',
  'style',
  'styleName',
  'symlink',
  'tagging',
  'transferAcceleration',
  'uploadId',
  'uploads',
  'versionId',
  'versioning',
  'versions',
  'vod',
  'website',
  'worm',
  'wormExtend',
  'wormId',
  'x-oss-ac-forward-allow',
  'x-oss-ac-source-ip',
  'x-oss-ac-subnet-mask',
  'x-oss-ac-vpc-id',
  'x-oss-async-process',
  'x-oss-process',
  'x-oss-request-payer',
  'x-oss-traffic-limit',
])

export interface SignableRequest {
  method: string
  bucket: string
  /** The object key, decoded (the raw key is what gets signed). */
  key: string
  query: QueryParams
  headers: Headers
}

/** `/<bucket>/<raw key>` then `?` and the sub-resources sorted, valueless ones bare, values not encoded. */
export function canonicalResourceV1(bucket: string, key: string, query: QueryParams): string {
  const resource = bucket ? `/${bucket}/${key}` : '/'
  const subs = query
    .filter(([name]) => SUB_RESOURCES.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (subs.length === 0) return resource
  return `${resource}?${subs.map(([name, value]) => (value === '' ? name : `${name}=${value}`)).join('&')}`
}

/**
 * VERB, Content-MD5, Content-Type, Date (x-oss-date when sent, or a presigned URL's Expires),
 * every x-oss-* header (lower-case, trimmed, sorted, `name:value`), then the canonical resource.
 */
export function stringToSignV1(request: SignableRequest, date: string): string {
  const { headers } = request
  // Sorted by name: `x-oss-copy-source` before `x-oss-copy-source-range`, which sorting whole
  // `name:value` lines would get wrong (':' sorts after '-').
  const ossHeaders = [...headers]
    .filter(([name]) => name.startsWith('x-oss-'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}:${headerText(value).trim()}\n`)
  return [
    request.method.toUpperCase(),
    headers.get('content-md5') ?? '',
    headerText(headers.get('content-type') ?? ''),
    date,
    ossHeaders.join('') + canonicalResourceV1(request.bucket, request.key, request.query),
  ].join('\n')
}

/** base64(HMAC-SHA1(secret, stringToSign)). */
export function signatureV1(secret: string, stringToSign: string): string {
  return createHmac('sha1', secret).update(stringToSign, 'utf8').digest('base64')
}
