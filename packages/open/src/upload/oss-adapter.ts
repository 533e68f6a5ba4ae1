/// <reference path="./ali-oss.d.ts" />
import { type UploadCredential, UploadError } from '@service-sdk/core'
import { createRedactor } from '@service-sdk/core/internal'

/**
 * ali-oss, loaded on the first upload: it is most of the package's weight in a browser bundle
 * (~200 KB gzipped of ~230), so bundlers put it in a chunk of its own and a page that never
 * uploads never loads it.
 */
let aliOss: Promise<new (options: object) => unknown> | undefined
function loadAliOss(): Promise<new (options: object) => unknown> {
  aliOss ??= import('ali-oss').then((m) => (m as { default: new (options: object) => unknown }).default)
  return aliOss
}

/**
 * The only file that touches ali-oss. ali-oss signs requests, builds them and parses OSS's XML;
 * its HTTP layer (the `urllib` option) is ours (`OssHttp`), so that each upload can cut its own
 * requests and count request bodies as they go out. Everything ali-oss throws is turned into an
 * `OssFailure` here: its raw errors carry the signed request headers (token, signature).
 */

/** What ali-oss passes to its HTTP layer for one request. */
export interface OssHttpRequest {
  method: string
  headers: Record<string, string>
  /** A small body (Complete's XML), or the body of a browser upload (a Blob). */
  content?: string | Uint8Array | Blob
  /** The body of an upload from Node, passed through untouched: a Readable, or a file range. */
  stream?: unknown
}

/** What ali-oss expects back from its HTTP layer (urllib's result shape, the fields it reads). */
export interface OssHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  data: Uint8Array | string
  res: {
    status: number
    statusCode: number
    headers: Record<string, string | string[] | undefined>
    size: number
    rt: number
    requestUrls: string[]
  }
}

/**
 * ali-oss's replaceable HTTP layer. A failed request rejects with `{ name, status: -1 }` (network)
 * or `{ name, status: -2 }` (timeout): the statuses ali-oss knows as "no answer".
 */
export interface OssHttp {
  request(url: string, params: OssHttpRequest): Promise<OssHttpResponse>
}

/**
 * A request body, made by the platform: for Node (`stream`) a Readable or a file range that our
 * HTTP layer reads itself; for browsers (`content`) a Blob. ali-oss picks the field its build
 * uses. `failure` records an error of the source itself (a file that vanished, a caller's stream
 * that failed): not the network's fault.
 */
export interface OssBody {
  size: number
  stream?: unknown
  content?: Uint8Array | Blob
  failure?: unknown
  /** The CRC-64/ECMA of the bytes this body sent: ask once the request succeeded. */
  checksum(): bigint | Promise<bigint>
}

export interface DonePart {
  number: number
  etag: string
  size: number
  /** The part's CRC-64/ECMA as a decimal string, computed from the source (absent when unknown). */
  crc?: string | undefined
}

/** A multipart upload the storage holds (ListMultipartUploads). */
export interface OpenUpload {
  key: string
  uploadId: string
  /** When it was initiated, epoch milliseconds (NaN when the storage did not say). */
  initiated: number
}

/** The operations an upload makes, on one credential. */
export interface OssClient {
  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody): Promise<string | undefined>
  initiate(key: string): Promise<string>
  /** Resolves with the part's ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody): Promise<string>
  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  complete(key: string, uploadId: string, parts: readonly DonePart[]): Promise<string | undefined>
  /** DeleteObject. */
  remove(key: string): Promise<void>
  /** Every multipart upload under `prefix` (ListMultipartUploads, all pages). */
  listUploads(prefix: string): Promise<OpenUpload[]>
  abort(key: string, uploadId: string): Promise<void>
  /** Every part the server holds for the upload, ascending. */
  listParts(key: string, uploadId: string): Promise<DonePart[]>
  /** The object's size, or `undefined` when there is no such object. */
  size(key: string): Promise<number | undefined>
}

/** The OSS codes that mean "these credentials are no longer good": get fresh ones and go on. */
const EXPIRED = new Set(['SecurityTokenExpired', 'InvalidAccessKeyId', 'InvalidSecurityToken'])

export type FailureKind = 'expired' | 'retryable' | 'fatal'

/** A failed OSS request, translated: no request headers, no secrets. */
export class OssFailure extends Error {
  override name = 'OssFailure'
  readonly kind: FailureKind
  /** OSS's error code (`InternalError`, `NoSuchUpload`...), or ours for no answer (`connection_error`, `timeout`). */
  readonly code: string
  /** Set when OSS answered. */
  readonly ossCode: string | undefined
  readonly status: number | undefined
  readonly requestId: string | undefined

  constructor(init: {
    kind: FailureKind
    code: string
    message: string
    ossCode?: string | undefined
    status?: number | undefined
    requestId?: string | undefined
  }) {
    super(init.message)
    this.kind = init.kind
    this.code = init.code
    this.ossCode = init.ossCode
    this.status = init.status
    this.requestId = init.requestId
  }
}

export function isOssFailure(error: unknown, ossCode?: string): error is OssFailure {
  return error instanceof OssFailure && (ossCode === undefined || error.ossCode === ossCode)
}

// The parts of ali-oss 6.23 used here. `_uploadPart`, `_objectRequestParams` and `request` are
// internal but stable across 6.x: they are the calls that take a body as we built it (a Node body
// for our HTTP layer, a Blob in browsers) instead of reading it into memory.
interface AliOssResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
}
interface AliOssPart {
  PartNumber: string
  ETag: string
  Size: string
}
interface AliOssParams {
  [field: string]: unknown
}
interface AliOss {
  // The request builder behind every operation; PutObject goes through it as UploadPart does, so
  // that the body reaches our HTTP layer as we made it (put/putStream would wrap or read it).
  _objectRequestParams(
    method: string,
    name: string,
    options: { headers: Record<string, number> },
  ): AliOssParams
  request(params: AliOssParams): Promise<{ status: number; res: AliOssResponse }>
  delete(name: string): Promise<unknown>
  listUploads(query: Record<string, string | number>): Promise<{
    uploads: Array<{ name: string; uploadId: string; initiated: string }> | undefined
    isTruncated: boolean | string
    nextKeyMarker: string
    nextUploadIdMarker: string
  }>
  initMultipartUpload(name: string, options?: object): Promise<{ uploadId: string }>
  _uploadPart(
    name: string,
    uploadId: string,
    partNo: number,
    data: { size: number; stream?: unknown; content?: unknown },
    options?: { disabledMD5?: boolean },
  ): Promise<{ etag: string }>
  completeMultipartUpload(
    name: string,
    uploadId: string,
    parts: Array<{ number: number; etag: string }>,
  ): Promise<{ res: AliOssResponse }>
  abortMultipartUpload(name: string, uploadId: string): Promise<unknown>
  listParts(
    name: string,
    uploadId: string,
    query?: Record<string, string | number>,
  ): Promise<{
    parts: AliOssPart | AliOssPart[] | undefined
    isTruncated: string | boolean
    nextPartNumberMarker: string
  }>
  head(name: string): Promise<{ status: number; res: AliOssResponse }>
}

/**
 * `endPoint` from sts-tmp: a bare host (`oss-cn-hangzhou.aliyuncs.com`, served over https) or,
 * from the simulator, a URL with its scheme.
 */
export function endpointUrl(endPoint: string): string {
  return /^https?:\/\//i.test(endPoint) ? endPoint : `https://${endPoint}`
}

export async function createOssClient(credential: UploadCredential, http: OssHttp): Promise<OssClient> {
  const redact = createRedactor([
    credential.accessKeySecret,
    credential.securityToken,
    credential.accessKeyId,
  ])
  const OSS = await loadAliOss()
  let oss: AliOss
  try {
    oss = new OSS({
      endpoint: endpointUrl(credential.endPoint),
      bucket: credential.bucket,
      accessKeyId: credential.accessKeyId,
      accessKeySecret: credential.accessKeySecret,
      stsToken: credential.securityToken,
      urllib: http,
      // Retries are ours (ali-oss retries neither 5xx nor stream bodies). A refresh interval
      // without a refresh function only silences ali-oss's warning: refreshing is ours too.
      retryMax: 0,
      refreshSTSTokenInterval: 24 * 3_600_000,
    }) as AliOss
  } catch (error) {
    // A bucket name or endpoint ali-oss refuses: nothing was sent.
    const reason = redact(error instanceof Error ? error.message : String(error))
    throw new UploadError({
      code: 'invalid_credentials',
      message: `sts-tmp returned credentials the object-storage client cannot use (${reason}): check the service behind sts-tmp.`,
    })
  }
  const translated = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      throw failureOf(error, redact)
    }
  }

  return {
    put: (key, body) =>
      translated(async () => {
        const params = oss._objectRequestParams('PUT', key, { headers: { 'Content-Length': body.size } })
        const { res } = await oss.request({
          ...params,
          ...(body.stream === undefined ? { content: body.content } : { stream: body.stream }),
          successStatuses: [200],
          disabledMD5: true,
        })
        return reportedCrc(res)
      }),
    initiate: (key) => translated(async () => (await oss.initMultipartUpload(key)).uploadId),
    uploadPart: (key, uploadId, partNumber, body) =>
      translated(async () => {
        const data = { size: body.size, stream: body.stream, content: body.content }
        return (await oss._uploadPart(key, uploadId, partNumber, data, { disabledMD5: true })).etag
      }),
    complete: (key, uploadId, parts) =>
      translated(async () => {
        const { res } = await oss.completeMultipartUpload(
          key,
          uploadId,
          parts.map((p) => ({ number: p.number, etag: p.etag })),
        )
        return reportedCrc(res)
      }),
    remove: (key) =>
      translated(async () => {
        await oss.delete(key)
      }),
    listUploads: (prefix) =>
      translated(async () => {
        const found: OpenUpload[] = []
        const query: Record<string, string | number> = { prefix, 'max-uploads': 1000 }
        for (;;) {
          const page = await oss.listUploads(query)
          for (const u of page.uploads ?? [])
            found.push({ key: u.name, uploadId: u.uploadId, initiated: Date.parse(u.initiated) })
          if (String(page.isTruncated) !== 'true' || !page.nextKeyMarker) break
          query['key-marker'] = page.nextKeyMarker
          query['upload-id-marker'] = page.nextUploadIdMarker
        }
        return found
      }),
    abort: (key, uploadId) =>
      translated(async () => {
        await oss.abortMultipartUpload(key, uploadId)
      }),
    listParts: (key, uploadId) =>
      translated(async () => {
        const parts: DonePart[] = []
        let marker: string | undefined
        for (;;) {
          const query: Record<string, string | number> = { 'max-parts': 1000 }
          if (marker !== undefined) query['part-number-marker'] = marker
          const page = await oss.listParts(key, uploadId, query)
          const listed = page.parts === undefined ? [] : Array.isArray(page.parts) ? page.parts : [page.parts]
          for (const p of listed)
            parts.push({ number: Number(p.PartNumber), etag: p.ETag, size: Number(p.Size) })
          if (String(page.isTruncated) !== 'true' || !page.nextPartNumberMarker) break
          marker = page.nextPartNumberMarker
        }
        return parts.sort((a, b) => a.number - b.number)
      }),
    size: async (key) => {
      try {
        const { res } = await translated(() => oss.head(key))
        return Number(res.headers['content-length'])
      } catch (error) {
        if (isOssFailure(error) && error.status === 404) return undefined
        throw error
      }
    },
  }
}

/** `x-oss-hash-crc64ecma`: a decimal string; `undefined` when absent (an older store). */
function reportedCrc(res: AliOssResponse): string | undefined {
  const value = res.headers['x-oss-hash-crc64ecma']
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text === '' ? undefined : text.trim()
}

/** Any ali-oss rejection as an `OssFailure`, classified for the retry loop. */
function failureOf(error: unknown, redact: (text: string) => string): OssFailure {
  if (error instanceof OssFailure) return error
  const raw = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown
    code?: unknown
    status?: unknown
    requestId?: unknown
    message?: unknown
  }
  const status = typeof raw.status === 'number' ? raw.status : undefined
  const code = typeof raw.code === 'string' && raw.code !== '' ? raw.code : undefined
  const message = redact(typeof raw.message === 'string' ? raw.message : String(error))
  const requestId = typeof raw.requestId === 'string' && raw.requestId !== '' ? raw.requestId : undefined
  // No answer: our HTTP layer rejected (-1 network, -2 timeout).
  if (status === -1 || status === -2) {
    return new OssFailure({
      kind: 'retryable',
      code: status === -2 ? 'timeout' : 'connection_error',
      message: status === -2 ? 'the request timed out' : `the connection failed (${message})`,
    })
  }
  if (status === undefined) {
    return new OssFailure({ kind: 'fatal', code: 'upload_failed', message })
  }
  const kind: FailureKind =
    code !== undefined && EXPIRED.has(code)
      ? 'expired'
      : status >= 500 || status === 408 || status === 429 || code === 'RequestTimeout'
        ? 'retryable'
        : 'fatal'
  return new OssFailure({
    kind,
    code: code ?? `http_${status}`,
    ossCode: code,
    status,
    requestId,
    message: `the object storage answered ${status}${code ? ` ${code}` : ''}: ${message}`,
  })
}
