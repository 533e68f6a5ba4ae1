/// <reference path="./mime.d.ts" />
import { createHmac } from 'node:crypto'
import { isIP } from 'node:net'
import { extname } from 'node:path'
import mime from 'mime'
import type { RequestTarget } from '../oss-adapter.ts'

/** A credential as ali-oss's constructor checks and keeps it: what requests are signed with. */
export interface OssOptions {
  /** The endpoint's scheme (`https:`), host with port, and host name. */
  endpoint: { protocol: string; host: string; hostname: string }
  bucket: string
  accessKeyId: string
  accessKeySecret: string
  stsToken?: string | undefined
}

/** One request on an object (or, with the key `''`, on the bucket), before it is signed. */
export interface ObjectRequest {
  method: 'PUT' | 'POST' | 'GET' | 'DELETE' | 'HEAD'
  /** The object's key (leading slashes dropped, as ali-oss does); `''` for the bucket. */
  key: string
  /**
   * The signed sub-resources: `'uploads'`, or name-value pairs (`partNumber`, `uploadId`). In the
   * URL after `query`, in the order given; in the signature sorted by name.
   */
  subresource?: 'uploads' | Readonly<Record<string, string | number>>
  /** Query parameters that are not signed (`max-parts`, `prefix`...), in the URL first. */
  query?: Readonly<Record<string, string | number>>
  /** `Content-Length` of a body sent as a stream (PutObject, UploadPart). */
  length?: number
  /** A small body sent whole (CompleteMultipartUpload's XML): its type and its MD5 are signed. */
  content?: { type: string; md5: string; length: number }
}

/** A request's URL (and its parts) and signed headers; the body and context are added to it. */
export interface SignedRequest {
  url: string
  target: RequestTarget
  headers: Record<string, string>
}

/** Signs one object request at the time of the call. */
export type ObjectSigner = (request: ObjectRequest) => SignedRequest

/**
 * Object requests made and signed here, as ali-oss 6.23 makes them on Node: the same URL, the
 * same headers (date, user agent, security token, length, the content type of the key's
 * extension from the same `mime` table, Content-MD5 of a small body) and the same OSS V1
 * signature (HMAC-SHA1 over the method, Content-MD5, content type, date, the `x-oss-*` headers
 * and `/bucket/key` with its sorted sub-resources). Hand-written because ali-oss's request
 * building (date formatting, header copies, URL parsing and formatting) cost a small file about
 * as much CPU as sending it (bench/upload), and loading ali-oss cost a large upload ~180 ms.
 * `object-signer.test.ts` holds it to ali-oss's own output.
 */
export function objectSigner(options: OssOptions, userAgent: string): ObjectSigner {
  const { endpoint, bucket, accessKeyId, accessKeySecret, stsToken } = options
  // ali-oss addresses an IP endpoint by path and names the bucket in a Host header of its default
  // region (the simulator is one); any other endpoint gets the bucket as a subdomain.
  const ip = isIP(endpoint.hostname) !== 0
  const origin = `${endpoint.protocol}//${ip ? '' : `${bucket}.`}${endpoint.host}`
  const host = ip ? `${bucket}.oss-cn-hangzhou.aliyuncs.com` : undefined
  // The origin's parts, for the HTTP layer (`RequestTarget`): `host` is `hostname` and the port.
  const hostname = (ip ? '' : `${bucket}.`) + endpoint.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = endpoint.host.slice(endpoint.hostname.length + 1)
  return ({ method, key: name, subresource, query, length, content }) => {
    const key = name.replace(/^\/+/, '')
    const date = httpDate()
    const type = content ? content.type : (mime.getType(extname(key)) ?? undefined)
    const headers: SignedRequest['headers'] = { 'x-oss-date': date, 'User-Agent': userAgent }
    if (stsToken) headers['x-oss-security-token'] = stsToken
    if (length !== undefined) headers['Content-Length'] = String(length)
    if (type) headers['Content-Type'] = type
    if (content) {
      headers['Content-MD5'] = content.md5
      headers['Content-Length'] = String(content.length)
    }
    const signed = [`${method}\n${content?.md5 ?? ''}\n${type ?? ''}\n${date}\nx-oss-date:${date}\n`]
    if (stsToken) signed.push(`x-oss-security-token:${stsToken.trim()}\n`)
    signed.push(`/${bucket}/${key}`, canonicalSubresource(subresource))
    const signature = createHmac('sha1', accessKeySecret).update(signed.join('')).digest('base64')
    headers.authorization = `OSS ${accessKeyId}:${signature}`
    if (host) headers.host = host
    const path = `/${escapeKey(key)}${search(query, subresource)}`
    const part = typeof subresource === 'object' ? Number(subresource.partNumber ?? 0) : 0
    return {
      url: origin + path,
      target: { protocol: endpoint.protocol, hostname, port, path, part },
      headers,
    }
  }
}

/** The current second as an HTTP date, formatted once per second (each request of a batch asks). */
let dateSecond = Number.NaN
let dateText = ''
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateText = new Date(second * 1000).toUTCString()
  }
  return dateText
}

/** The sub-resources as signed: sorted by name, `name=value` (a bare name when the value is empty). */
function canonicalSubresource(subresource: ObjectRequest['subresource']): string {
  if (subresource === undefined) return ''
  if (typeof subresource === 'string') return `?${subresource}`
  const names = Object.keys(subresource).sort()
  if (names.length === 0) return ''
  return `?${names.map((n) => (subresource[n] === '' ? n : `${n}=${subresource[n]}`)).join('&')}`
}

/** The URL's query: `query` then the sub-resources, each encoded (`uploads` as `uploads=`). */
function search(query: ObjectRequest['query'], subresource: ObjectRequest['subresource']): string {
  const pairs: string[] = []
  for (const [name, value] of Object.entries(query ?? {}))
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  if (typeof subresource === 'string') pairs.push(`${subresource}=`)
  else
    for (const [name, value] of Object.entries(subresource ?? {}))
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

/** The key in the URL path: encoded except for `/`, `+` as `%2B` (ali-oss's `_escape`). */
function escapeKey(key: string): string {
  let encoded: string
  try {
    encoded = encodeURIComponent(key)
  } catch {
    // A lone surrogate: ali-oss (utility.encodeURIComponent) sends the key as it is.
    encoded = key
  }
  return encoded.replace(/%2F/g, '/').replace(/\+/g, '%2B')
}
