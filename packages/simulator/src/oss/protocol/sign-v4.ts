import { createHash, createHmac } from 'node:crypto'
import { headerText, type QueryParams } from './request.ts'
import type { SignableRequest } from './sign-v1.ts'

export const V4_ALGORITHM = 'OSS4-HMAC-SHA256'

/** RFC 3986 strict: encodeURIComponent plus `!'()*`. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

const byName = (a: readonly [string, string], b: readonly [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0

/**
 * Every query parameter (but the signature itself, for presigned URLs), encoded, sorted by name in
 * code-unit order as the OSS V4 documentation states (ali-oss sorts with localeCompare, which
 * agrees for the parameter names it sends), a valueless one as its bare name.
 */
export function canonicalQueryV4(query: QueryParams, exclude?: string): string {
  return query
    .filter(([name]) => name !== exclude)
    .sort(byName)
    .map(([name, value]) =>
      value === '' ? encodeRfc3986(name) : `${encodeRfc3986(name)}=${encodeRfc3986(value)}`,
    )
    .join('&')
}

/**
 * VERB, URI-encoded `/<bucket>/<key>` (slashes kept), canonical query, canonical headers
 * (content-type, content-md5, x-oss-*, plus the additional ones: `name:value\n`, sorted), the
 * additional header names, and the payload hash (x-oss-content-sha256, or UNSIGNED-PAYLOAD).
 */
export function canonicalRequestV4(
  request: SignableRequest,
  additionalHeaders: readonly string[],
  excludeQuery?: string,
): string {
  const { headers } = request
  const names = new Set(additionalHeaders)
  for (const [name] of headers) {
    if (name === 'content-type' || name === 'content-md5' || name.startsWith('x-oss-')) names.add(name)
  }
  const canonicalHeaders = [...names]
    .sort()
    .map((name) => `${name}:${headerText(headers.get(name) ?? '').trim()}\n`)
    .join('')
  const path = `/${request.bucket ? `${request.bucket}/` : ''}${request.key}`
  return [
    request.method.toUpperCase(),
    encodeRfc3986(path).replace(/%2F/g, '/'),
    canonicalQueryV4(request.query, excludeQuery),
    canonicalHeaders,
    additionalHeaders.join(';'),
    headers.get('x-oss-content-sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n')
}

export function scopeV4(date: string, region: string, product = 'oss'): string {
  return `${date}/${region}/${product}/aliyun_v4_request`
}

/** `OSS4-HMAC-SHA256`, the request time, the scope, and the hex SHA-256 of the canonical request. */
export function stringToSignV4(isoDate: string, scope: string, canonicalRequest: string): string {
  return [
    V4_ALGORITHM,
    isoDate,
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n')
}

/** HMAC chain: "aliyun_v4"+secret, date, region, product, "aliyun_v4_request"; hex signature. */
export function signatureV4(
  secret: string,
  date: string,
  region: string,
  stringToSign: string,
  product = 'oss',
): string {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()
  const key = hmac(hmac(hmac(hmac(`aliyun_v4${secret}`, date), region), product), 'aliyun_v4_request')
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex')
}
