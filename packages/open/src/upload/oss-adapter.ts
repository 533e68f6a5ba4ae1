/// <reference path="./ali-oss.d.ts" />
import { type UploadCredential, UploadError } from '@service-sdk/core'
import { createRedactor } from '@service-sdk/core/internal'
import { failureOf, isOssFailure } from './oss-failure.ts'
import type { RequestContext } from './platform.ts'

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
 * The only file that touches ali-oss, and where the platforms' two ways to the store meet. On
 * Node every request is made, signed and read by `node/object-requests.ts` (loaded through
 * `OssHttp.objectRequests`) and ali-oss is never loaded; in browsers ali-oss signs requests, builds
 * them and parses OSS's XML. Either way the HTTP layer is ours (`OssHttp`, ali-oss's `urllib`
 * option), so that each upload can cut its own requests and count request bodies as they go out.
 * One connection (`OssOperations`: an ali-oss client, or a signer) is made per credential and
 * shared by every upload that goes out with it; each operation passes its upload's
 * `RequestContext` (as ali-oss's `ctx` option, which reaches our HTTP layer untouched). Every
 * failure is turned into an `OssFailure` (oss-failure.ts): ali-oss's raw errors carry the signed
 * request headers (token, signature).
 */

/** What our HTTP layer is handed for one request (by ali-oss, or by `node/object-requests.ts`). */
export interface OssHttpRequest {
  method: string
  headers: Record<string, string | number>
  /** A small body (Complete's XML), or the body of a browser upload (a Blob). */
  content?: string | Uint8Array | Blob
  /** The body of an upload from Node, passed through untouched: a Readable, or a file range. */
  stream?: unknown
  /**
   * The upload's context, from the operation's `ctx` option. ali-oss deep-copies the options of
   * CompleteMultipartUpload (the signal arrives as a plain object there): control requests read
   * only `timeoutMs`; object-byte requests (PUT) are passed theirs as it was.
   */
  ctx: RequestContext
  /**
   * The URL's parts, when the caller made the URL from them (Node's signer): the HTTP layer takes
   * them instead of parsing the URL again. ali-oss passes none.
   */
  target?: RequestTarget
}

/** Where a request goes, in parts (node:http's request options), and which object bytes it carries. */
export interface RequestTarget {
  protocol: string
  /** Without an IPv6 literal's brackets. */
  hostname: string
  /** `''` for the scheme's default. */
  port: string
  /** The path and query, encoded. */
  path: string
  /** 0 for a PutObject, the part number for an UploadPart (see `partNumberOf`). */
  part: number
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
 * The platform's HTTP layer. A request without an answer rejects with a `NoAnswerError`
 * (no-answer.ts): `status` -1 (network, or cut) or -2 (timeout), the statuses ali-oss knows as
 * "no answer".
 */
export interface OssHttp {
  request(url: string, params: OssHttpRequest): Promise<OssHttpResponse>
  /**
   * Where the platform makes, signs and reads every request itself (Node:
   * node/object-requests.ts), loaded with the first connection; ali-oss is then never loaded.
   * Without it (browsers) the requests go through ali-oss.
   */
  objectRequests?(): Promise<SignedOperations>
}

/**
 * The operations of `credential`, signed by the platform, over `http`. Refuses a credential
 * ali-oss's constructor would refuse (bucket name, endpoint, keys) with `refusedCredential`.
 */
export type SignedOperations = (
  credential: UploadCredential,
  http: OssHttp,
  redact: (text: string) => string,
) => OssOperations

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

/** Where the next page of ListMultipartUploads starts. */
export interface UploadsMarker {
  key: string
  uploadId: string
}

/**
 * The requests an upload makes, on one credential's connection; each carries its upload
 * attempt's context. A failure rejects with anything `failureOf` (oss-failure.ts) reads.
 */
export interface OssOperations {
  /** PutObject; resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody, ctx: RequestContext): Promise<string | undefined>
  /** InitiateMultipartUpload; resolves with the upload id. */
  initiate(key: string, ctx: RequestContext): Promise<string>
  /** UploadPart; resolves with the part's ETag. */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: OssBody,
    ctx: RequestContext,
  ): Promise<string>
  /** CompleteMultipartUpload; resolves with the object's CRC-64 as the storage reports it. */
  complete(
    key: string,
    uploadId: string,
    parts: readonly DonePart[],
    ctx: RequestContext,
  ): Promise<string | undefined>
  /** DeleteObject. */
  remove(key: string, ctx: RequestContext): Promise<void>
  /** AbortMultipartUpload. */
  abort(key: string, uploadId: string, ctx: RequestContext): Promise<void>
  /** One page of ListParts (up to 1000) after part `after`, and where the next starts. */
  listPartsPage(
    key: string,
    uploadId: string,
    after: string | undefined,
    ctx: RequestContext,
  ): Promise<{ parts: DonePart[]; next: string | undefined }>
  /** One page of ListMultipartUploads under `prefix` (up to 1000), and where the next starts. */
  listUploadsPage(
    prefix: string,
    after: UploadsMarker | undefined,
    ctx: RequestContext,
  ): Promise<{ uploads: OpenUpload[]; next: UploadsMarker | undefined }>
  /** HeadObject: the object's size; rejects with status 404 when there is no such object. */
  size(key: string, ctx: RequestContext): Promise<number>
}

// The parts of ali-oss 6.23 used in browsers. `_uploadPart`, `_objectRequestParams` and `request`
// are internal but stable across 6.x: they are the calls that take a body as we built it (a Blob)
// instead of reading it into memory. Every operation takes `{ ctx }`, which ali-oss hands to our
// HTTP layer with each request.
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
interface Ctx {
  ctx: RequestContext
}
interface AliOss {
  // The request builder behind every operation; PutObject goes through it as UploadPart does, so
  // that the body reaches our HTTP layer as we made it (put/putStream would wrap or read it).
  _objectRequestParams(
    method: string,
    name: string,
    options: Ctx & { headers: Record<string, number> },
  ): AliOssParams
  request(params: AliOssParams): Promise<{ status: number; res: AliOssResponse }>
  delete(name: string, options: Ctx): Promise<unknown>
  listUploads(
    query: Record<string, string | number>,
    options: Ctx,
  ): Promise<{
    uploads: Array<{ name: string; uploadId: string; initiated: string }> | undefined
    isTruncated: boolean | string
    nextKeyMarker: string
    nextUploadIdMarker: string
  }>
  initMultipartUpload(name: string, options: Ctx): Promise<{ uploadId: string }>
  _uploadPart(
    name: string,
    uploadId: string,
    partNo: number,
    data: { size: number; stream?: unknown; content?: unknown },
    options: Ctx & { disabledMD5: boolean },
  ): Promise<{ etag: string }>
  completeMultipartUpload(
    name: string,
    uploadId: string,
    parts: Array<{ number: number; etag: string }>,
    options: Ctx,
  ): Promise<{ res: AliOssResponse }>
  abortMultipartUpload(name: string, uploadId: string, options: Ctx): Promise<unknown>
  listParts(
    name: string,
    uploadId: string,
    query: Record<string, string | number>,
    options: Ctx,
  ): Promise<{
    parts: AliOssPart | AliOssPart[] | undefined
    isTruncated: string | boolean
    nextPartNumberMarker: string
  }>
  head(name: string, options: Ctx): Promise<{ status: number; res: AliOssResponse }>
}

/** The operations through one ali-oss client (browsers). */
class AliOssOperations implements OssOperations {
  readonly #oss: AliOss

  constructor(oss: AliOss) {
    this.#oss = oss
  }

  async put(key: string, body: OssBody, ctx: RequestContext): Promise<string | undefined> {
    const headers = { 'Content-Length': body.size }
    const params = this.#oss._objectRequestParams('PUT', key, { ctx, headers })
    const { res } = await this.#oss.request({
      ...params,
      ...(body.stream === undefined ? { content: body.content } : { stream: body.stream }),
      successStatuses: [200],
      disabledMD5: true,
    })
    return reportedCrc(res.headers)
  }

  async initiate(key: string, ctx: RequestContext): Promise<string> {
    return (await this.#oss.initMultipartUpload(key, { ctx })).uploadId
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody, ctx: RequestContext) {
    const data = { size: body.size, stream: body.stream, content: body.content }
    return (await this.#oss._uploadPart(key, uploadId, partNumber, data, { ctx, disabledMD5: true })).etag
  }

  async complete(key: string, uploadId: string, parts: readonly DonePart[], ctx: RequestContext) {
    const list = parts.map((p) => ({ number: p.number, etag: p.etag }))
    const { res } = await this.#oss.completeMultipartUpload(key, uploadId, list, { ctx })
    return reportedCrc(res.headers)
  }

  async remove(key: string, ctx: RequestContext): Promise<void> {
    await this.#oss.delete(key, { ctx })
  }

  async abort(key: string, uploadId: string, ctx: RequestContext): Promise<void> {
    await this.#oss.abortMultipartUpload(key, uploadId, { ctx })
  }

  async listPartsPage(key: string, uploadId: string, after: string | undefined, ctx: RequestContext) {
    const query: Record<string, string | number> = { 'max-parts': 1000 }
    if (after !== undefined) query['part-number-marker'] = after
    const page = await this.#oss.listParts(key, uploadId, query, { ctx })
    const listed = page.parts === undefined ? [] : Array.isArray(page.parts) ? page.parts : [page.parts]
    const parts = listed.map((p) => ({ number: Number(p.PartNumber), etag: p.ETag, size: Number(p.Size) }))
    const more = String(page.isTruncated) === 'true' && page.nextPartNumberMarker
    return { parts, next: more ? page.nextPartNumberMarker : undefined }
  }

  async listUploadsPage(prefix: string, after: UploadsMarker | undefined, ctx: RequestContext) {
    const query: Record<string, string | number> = { prefix, 'max-uploads': 1000 }
    if (after) {
      query['key-marker'] = after.key
      query['upload-id-marker'] = after.uploadId
    }
    const page = await this.#oss.listUploads(query, { ctx })
    const uploads = (page.uploads ?? []).map((u) => ({
      key: u.name,
      uploadId: u.uploadId,
      initiated: Date.parse(u.initiated),
    }))
    const more = String(page.isTruncated) === 'true' && page.nextKeyMarker
    return {
      uploads,
      next: more ? { key: page.nextKeyMarker, uploadId: page.nextUploadIdMarker } : undefined,
    }
  }

  async size(key: string, ctx: RequestContext): Promise<number> {
    const { res } = await this.#oss.head(key, { ctx })
    return Number(res.headers['content-length'])
  }
}

/**
 * `endPoint` from sts-tmp: a bare host (`oss-cn-hangzhou.aliyuncs.com`, served over https) or,
 * from the simulator, a URL with its scheme.
 */
export function endpointUrl(endPoint: string): string {
  return /^https?:\/\//i.test(endPoint) ? endPoint : `https://${endPoint}`
}

/** A credential's operations (ali-oss's or the platform's), and the redactor of its secrets. */
export interface OssConnection {
  readonly operations: OssOperations
  readonly redact: (text: string) => string
}

/** Per HTTP layer (one per client's platform), the connection made for each credential. */
const connections = new WeakMap<OssHttp, WeakMap<UploadCredential, Promise<OssConnection>>>()
/** The same connections once made, for `madeConnection`. */
const made = new WeakMap<OssHttp, WeakMap<UploadCredential, OssConnection>>()

/** The connection of `credential` when it is made already (`ossConnection` settled), without waiting. */
export function madeConnection(credential: UploadCredential, http: OssHttp): OssConnection | undefined {
  return made.get(http)?.get(credential)
}

/**
 * The connection of `credential`, made once and shared: signing setup, option parsing and the
 * client object are per credential, not per upload (many small files spend a good share of their
 * CPU there). A credential the object-storage client refuses is refused to every upload that
 * gets it, before anything is sent.
 */
export function ossConnection(credential: UploadCredential, http: OssHttp): Promise<OssConnection> {
  const byCredential = perHttp(connections, http)
  let connection = byCredential.get(credential)
  if (!connection) {
    connection = connect(credential, http)
    byCredential.set(credential, connection)
    connection.then(
      (ready) => perHttp(made, http).set(credential, ready),
      () => {},
    )
  }
  return connection
}

function perHttp<V>(
  maps: WeakMap<OssHttp, WeakMap<UploadCredential, V>>,
  http: OssHttp,
): WeakMap<UploadCredential, V> {
  let map = maps.get(http)
  if (!map) {
    map = new WeakMap()
    maps.set(http, map)
  }
  return map
}

/** The error of a credential the object-storage client cannot use; `reason` is already redacted. */
export function refusedCredential(reason: string): UploadError {
  return new UploadError({
    code: 'invalid_credentials',
    message: `sts-tmp returned credentials the object-storage client cannot use (${reason}): check the service behind sts-tmp.`,
  })
}

async function connect(credential: UploadCredential, http: OssHttp): Promise<OssConnection> {
  const redact = createRedactor([
    credential.accessKeySecret,
    credential.securityToken,
    credential.accessKeyId,
  ])
  if (http.objectRequests) {
    const signed = await http.objectRequests()
    return { operations: signed(credential, http, redact), redact }
  }
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
    throw refusedCredential(redact(error instanceof Error ? error.message : String(error)))
  }
  return { operations: new AliOssOperations(oss), redact }
}

/**
 * The operations of one upload attempt on a shared connection: each request carries the
 * attempt's context, each failure becomes an `OssFailure`. Cheap to make (one per attempt and
 * credential).
 */
export class OssClient {
  readonly #ops: OssOperations
  readonly #redact: (text: string) => string
  readonly #ctx: RequestContext

  constructor(connection: OssConnection, context: RequestContext) {
    this.#ops = connection.operations
    this.#redact = connection.redact
    this.#ctx = context
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody): Promise<string | undefined> {
    return this.#translated(() => this.#ops.put(key, body, this.#ctx))
  }

  initiate(key: string): Promise<string> {
    return this.#translated(() => this.#ops.initiate(key, this.#ctx))
  }

  /** Resolves with the part's ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody): Promise<string> {
    return this.#translated(() => this.#ops.uploadPart(key, uploadId, partNumber, body, this.#ctx))
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  complete(key: string, uploadId: string, parts: readonly DonePart[]): Promise<string | undefined> {
    return this.#translated(() => this.#ops.complete(key, uploadId, parts, this.#ctx))
  }

  /** DeleteObject. */
  remove(key: string): Promise<void> {
    return this.#translated(() => this.#ops.remove(key, this.#ctx))
  }

  /** Every multipart upload under `prefix` (ListMultipartUploads, all pages). */
  listUploads(prefix: string): Promise<OpenUpload[]> {
    return this.#translated(async () => {
      const found: OpenUpload[] = []
      let after: UploadsMarker | undefined
      do {
        const page = await this.#ops.listUploadsPage(prefix, after, this.#ctx)
        found.push(...page.uploads)
        after = page.next
      } while (after)
      return found
    })
  }

  abort(key: string, uploadId: string): Promise<void> {
    return this.#translated(() => this.#ops.abort(key, uploadId, this.#ctx))
  }

  /** Every part the server holds for the upload, ascending. */
  listParts(key: string, uploadId: string): Promise<DonePart[]> {
    return this.#translated(async () => {
      const parts: DonePart[] = []
      let after: string | undefined
      do {
        const page = await this.#ops.listPartsPage(key, uploadId, after, this.#ctx)
        parts.push(...page.parts)
        after = page.next
      } while (after !== undefined)
      return parts.sort((a, b) => a.number - b.number)
    })
  }

  /** The object's size, or `undefined` when there is no such object. */
  async size(key: string): Promise<number | undefined> {
    try {
      return await this.#translated(() => this.#ops.size(key, this.#ctx))
    } catch (error) {
      if (isOssFailure(error) && error.status === 404) return undefined
      throw error
    }
  }

  async #translated<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      throw failureOf(error, this.#redact)
    }
  }
}

/** `x-oss-hash-crc64ecma`: a decimal string; `undefined` when absent (an older store). */
export function reportedCrc(headers: OssHttpResponse['headers']): string | undefined {
  const value = headers['x-oss-hash-crc64ecma']
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text === '' ? undefined : text.trim()
}
