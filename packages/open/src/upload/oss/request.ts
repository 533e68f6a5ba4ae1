import type { RequestTarget } from './types.ts'

/** Where requests are signed for: a credential as ali-oss's constructor checks and keeps it. */
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
  /** A small body sent whole (CompleteMultipartUpload's XML): its type (and MD5, when known) are signed. */
  content?: { type: string; md5?: string | undefined; length: number }
  /** The object's type when the key's extension names none the signer knows (a browser File's type). */
  type?: string | undefined
}

/** The requests an upload makes, by OSS's names for them. */
export type OssOp =
  | 'PutObject'
  | 'InitiateMultipartUpload'
  | 'UploadPart'
  | 'CompleteMultipartUpload'
  | 'ListParts'
  | 'AbortMultipartUpload'
  | 'HeadObject'
  | 'DeleteObject'
  | 'ListMultipartUploads'

/**
 * One request of an upload, by what it does: what the upload engine asks a signer for, and what
 * a browser asks the upload proxy to sign (which then decides the method and sub-resources).
 */
export interface OssRequest {
  op: OssOp
  /** The object's key; `''` for ListMultipartUploads. */
  key: string
  uploadId?: string | undefined
  partNumber?: number | undefined
  /** Unsigned query parameters: ListParts' and ListMultipartUploads' paging. */
  query?: Readonly<Record<string, string | number>> | undefined
  /** Bytes of the body (PutObject, UploadPart). */
  length?: number | undefined
  /** CompleteMultipartUpload's XML body: its type, MD5 (where computed) and length. */
  content?: ObjectRequest['content']
  /** The object's type when its key's extension names none (PutObject, InitiateMultipartUpload). */
  type?: string | undefined
}

/** Signs one request of an upload: with a credential held here, or by the upload proxy. */
export type RequestSigner = (request: OssRequest) => SignedRequest | Promise<SignedRequest>

/** The method and sub-resources of each operation, as ali-oss sends them. */
export function toObjectRequest(request: OssRequest): ObjectRequest {
  const { op, key, uploadId = '', partNumber } = request
  const base = { key, ...(request.type === undefined ? {} : { type: request.type }) }
  switch (op) {
    case 'PutObject':
      return { ...base, method: 'PUT', ...length(request) }
    case 'InitiateMultipartUpload':
      return { ...base, method: 'POST', subresource: 'uploads' }
    case 'UploadPart':
      return {
        ...base,
        method: 'PUT',
        subresource: { partNumber: partNumber ?? 0, uploadId },
        ...length(request),
      }
    case 'CompleteMultipartUpload':
      return {
        ...base,
        method: 'POST',
        subresource: { uploadId },
        ...(request.content ? { content: request.content } : {}),
      }
    case 'ListParts':
      return { ...base, method: 'GET', subresource: { uploadId }, ...query(request) }
    case 'AbortMultipartUpload':
      return { ...base, method: 'DELETE', subresource: { uploadId } }
    case 'HeadObject':
      return { ...base, method: 'HEAD', subresource: {} }
    case 'DeleteObject':
      return { ...base, method: 'DELETE', subresource: {} }
    case 'ListMultipartUploads':
      return { key: '', method: 'GET', subresource: 'uploads', ...query(request) }
  }
}

const length = (r: OssRequest) => (r.length === undefined ? {} : { length: r.length })
const query = (r: OssRequest) => (r.query === undefined ? {} : { query: r.query })

/** A signer of `OssRequest`s with a credential held in this process. */
export function localSigner(signer: ObjectSigner): RequestSigner {
  return (request) => signer.sign(toObjectRequest(request))
}

/** A request's URL (and its parts) and the headers it must go out with; the body is added to it. */
export interface SignedRequest {
  url: string
  target: RequestTarget
  headers: Record<string, string>
}

/** HMAC-SHA1 of a text under the credential's secret, base64: synchronous where the platform allows. */
export type Hmac = (text: string) => string | Promise<string>

/** What differs between the places requests are signed in (Node, a browser, the upload proxy). */
export interface SignerSetup {
  hmac: Hmac
  /** The object's type from its key (the `mime` table ali-oss uses), where that table is loaded. */
  typeOf?: ((key: string) => string | undefined) | undefined
  /** ali-oss's User-Agent on Node; browsers send their own. */
  userAgent?: string | undefined
}

/**
 * Signs one request: in headers with the current date (`sign`), or in the URL's query with an
 * expiry (`presign`: what the upload proxy hands a browser, which then holds no credential).
 */
export interface ObjectSigner {
  sign(request: ObjectRequest): SignedRequest | Promise<SignedRequest>
  /** Valid until `expires` (epoch seconds); headers are the ones the signature covers. */
  presign(request: ObjectRequest, expires: number): SignedRequest | Promise<SignedRequest>
}

/**
 * Object requests made and signed as ali-oss 6.23 makes them: the same URL, the same headers
 * (date, user agent, security token, length, the content type of the key's extension from the
 * same `mime` table, Content-MD5 of a small body) and the same OSS V1 signature (HMAC-SHA1 over
 * the method, Content-MD5, content type, date or expiry, the `x-oss-*` headers and
 * `/bucket/key` with its sorted sub-resources); `presign` as ali-oss's `signatureUrl`.
 * Hand-written because ali-oss's request building (date formatting, header copies, URL parsing
 * and formatting) cost a small file about as much CPU as sending it (bench/upload), loading it
 * cost a large upload ~180 ms, and its browser build was 173 KB gzipped of a page's first upload.
 * `request.test.ts` holds it to ali-oss's own output.
 */
export function objectSigner(options: OssOptions, setup: SignerSetup): ObjectSigner {
  const { endpoint, bucket, accessKeyId, stsToken } = options
  // ali-oss addresses an IP endpoint by path and names the bucket in a Host header of its default
  // region (the simulator is one); any other endpoint gets the bucket as a subdomain.
  const ip = isIPv4(endpoint.hostname)
  const origin = `${endpoint.protocol}//${ip ? '' : `${bucket}.`}${endpoint.host}`
  const host = ip ? `${bucket}.oss-cn-hangzhou.aliyuncs.com` : undefined
  // The origin's parts, for the HTTP layer (`RequestTarget`): `host` is `hostname` and the port.
  const hostname = (ip ? '' : `${bucket}.`) + endpoint.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = endpoint.host.slice(endpoint.hostname.length + 1)
  const typeOf = (request: ObjectRequest, key: string) =>
    request.content ? request.content.type : (setup.typeOf?.(key) ?? request.type)
  /** The URL (its query, then `auth` when the signature goes in it) and its parts. */
  const located = (request: ObjectRequest, key: string, auth: string, headers: Record<string, string>) => {
    const query = search(request.query, request.subresource)
    const path = `/${escapeKey(key)}${query}${auth === '' ? '' : `${query === '' ? '?' : '&'}${auth}`}`
    const sub = request.subresource
    const part = typeof sub === 'object' ? Number(sub.partNumber ?? 0) : 0
    return {
      url: origin + path,
      target: { protocol: endpoint.protocol, hostname, port, path, part },
      headers,
    }
  }

  const sign = (request: ObjectRequest) => {
    const key = keyOf(request)
    const date = httpDate()
    const type = typeOf(request, key)
    const headers: Record<string, string> = { 'x-oss-date': date }
    if (setup.userAgent) headers['User-Agent'] = setup.userAgent
    if (stsToken) headers['x-oss-security-token'] = stsToken
    if (request.length !== undefined) headers['Content-Length'] = String(request.length)
    if (type) headers['Content-Type'] = type
    const md5 = request.content?.md5 ?? ''
    if (request.content) {
      if (md5) headers['Content-MD5'] = md5
      headers['Content-Length'] = String(request.content.length)
    }
    const signed = [`${request.method}\n${md5}\n${type ?? ''}\n${date}\nx-oss-date:${date}\n`]
    if (stsToken) signed.push(`x-oss-security-token:${stsToken.trim()}\n`)
    signed.push(`/${bucket}/${key}`, canonicalSubresource(request.subresource))
    return then(setup.hmac(signed.join('')), (signature) => {
      headers.authorization = `OSS ${accessKeyId}:${signature}`
      if (host) headers.host = host
      return located(request, key, '', headers)
    })
  }

  // Encoded once per credential: a part's signed URL is mostly this token.
  const authToken = stsToken ? `&security-token=${encodeURIComponent(stsToken)}` : ''
  const authKey = `OSSAccessKeyId=${encodeURIComponent(accessKeyId)}&Expires=`
  const presign = (request: ObjectRequest, expires: number) => {
    const key = keyOf(request)
    const type = typeOf(request, key)
    const headers: Record<string, string> = {}
    if (type) headers['Content-Type'] = type
    const md5 = request.content?.md5 ?? ''
    if (md5) headers['Content-MD5'] = md5
    // The security token is a signed sub-resource of a signed URL, as in ali-oss's signatureUrl.
    const sub = withToken(request.subresource, stsToken)
    const signed = `${request.method}\n${md5}\n${type ?? ''}\n${expires}\n/${bucket}/${key}${canonicalSubresource(sub)}`
    return then(setup.hmac(signed), (signature) => {
      const auth = `${authKey}${expires}&Signature=${encodeURIComponent(signature)}${authToken}`
      return located(request, key, auth, headers)
    })
  }

  return { sign, presign }
}

/** `f(value)`, synchronously when `value` is not a promise (Node's HMAC is synchronous). */
function then<T, R>(value: T | Promise<T>, f: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(f) : f(value)
}

/** The key without leading slashes (ali-oss drops them). */
const keyOf = (request: ObjectRequest) =>
  request.key.charCodeAt(0) === 47 ? request.key.replace(/^\/+/, '') : request.key

/** A dotted-quad IPv4 address, as a WHATWG URL normalises one (ali-oss's `net.isIP`). */
function isIPv4(hostname: string): boolean {
  const parts = hostname.split('.')
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
}

function withToken(
  subresource: ObjectRequest['subresource'],
  token: string | undefined,
): ObjectRequest['subresource'] {
  if (!token) return subresource
  if (typeof subresource === 'string') return { [subresource]: '', 'security-token': token }
  return { ...subresource, 'security-token': token }
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

/** Characters `encodeURIComponent` leaves as they are, and `/`: a key of only these is its own path. */
const PLAIN_KEY = /^[\w.!~*'()/-]*$/

/** The key in the URL path: encoded except for `/`, `+` as `%2B` (ali-oss's `_escape`). */
function escapeKey(key: string): string {
  if (PLAIN_KEY.test(key)) return key
  try {
    // `+` comes out as %2B already.
    return encodeURIComponent(key).replace(/%2F/g, '/')
  } catch {
    // A lone surrogate: ali-oss (utility.encodeURIComponent) sends the key as it is, then escapes it.
    return key.replace(/%2F/g, '/').replace(/\+/g, '%2B')
  }
}
