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
 * The only file that touches ali-oss. ali-oss signs requests, builds them and parses OSS's XML;
 * its HTTP layer (the `urllib` option) is ours (`OssHttp`), so that each upload can cut its own
 * requests and count request bodies as they go out. One ali-oss client is made per credential
 * and shared by every upload that goes out with it; each operation passes its upload's
 * `RequestContext` as ali-oss's `ctx` option, which reaches our HTTP layer untouched. Everything
 * ali-oss throws is turned into an `OssFailure` (oss-failure.ts): its raw errors carry the
 * signed request headers (token, signature).
 */

/** What ali-oss passes to its HTTP layer for one request. */
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
 * ali-oss's replaceable HTTP layer. A request without an answer rejects with a `NoAnswerError`
 * (no-answer.ts): `status` -1 (network, or cut) or -2 (timeout), the statuses ali-oss knows as
 * "no answer".
 */
export interface OssHttp {
  request(url: string, params: OssHttpRequest): Promise<OssHttpResponse>
  /**
   * Where the platform makes and signs PutObject itself (Node: node/signed-put.ts), loaded with
   * the first connection; each file's PUT then goes straight to `request`. Without it (browsers)
   * PutObject goes through ali-oss like every other request.
   */
  putSigning?(): Promise<PutSigning>
}

/** ali-oss's options once it has checked them: what a PutObject is signed with. */
export interface OssOptions {
  /** The endpoint as ali-oss parsed it (node:url's `parse`). */
  endpoint: { protocol: string; host: string; hostname: string }
  bucket: string
  accessKeyId: string
  accessKeySecret: string
  stsToken?: string | undefined
}

/** A PutObject request: its URL and signed headers; the body and context are added to it. */
export interface SignedPut {
  url: string
  headers: Record<string, string | number>
}

/** Signs the PutObject of `key` with `size` bytes, at the time of the call. */
export type PutSigner = (key: string, size: number) => SignedPut

/** The signer of one ali-oss client's options (and its User-Agent). */
export type PutSigning = (options: OssOptions, userAgent: string) => PutSigner

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

// The parts of ali-oss 6.23 used here. `_uploadPart`, `_objectRequestParams` and `request` are
// internal but stable across 6.x: they are the calls that take a body as we built it (a Node body
// for our HTTP layer, a Blob in browsers) instead of reading it into memory. Every operation takes
// `{ ctx }`, which ali-oss hands to our HTTP layer with each request.
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
  readonly options: OssOptions
  readonly userAgent: string
  /** ali-oss's error of a failed answer (it reads OSS's XML error document), or of no answer. */
  requestError(result: OssHttpResponse): Promise<unknown>
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

/**
 * `endPoint` from sts-tmp: a bare host (`oss-cn-hangzhou.aliyuncs.com`, served over https) or,
 * from the simulator, a URL with its scheme.
 */
export function endpointUrl(endPoint: string): string {
  return /^https?:\/\//i.test(endPoint) ? endPoint : `https://${endPoint}`
}

/** An ali-oss client made for one credential, and the redactor of that credential's secrets. */
export interface OssConnection {
  readonly oss: AliOss
  readonly redact: (text: string) => string
  /** PutObject without ali-oss, when the HTTP layer signs it (`OssHttp.putSigning`). */
  readonly direct?: { readonly http: OssHttp; readonly sign: PutSigner } | undefined
}

/** Per HTTP layer (one per client's platform), the connection made for each credential. */
const connections = new WeakMap<OssHttp, WeakMap<UploadCredential, Promise<OssConnection>>>()

/**
 * The ali-oss client of `credential`, made once and shared: signing setup, option parsing and
 * the client object are per credential, not per upload (many small files spend a good share of
 * their CPU there). A credential ali-oss refuses is refused to every upload that gets it.
 */
export function ossConnection(credential: UploadCredential, http: OssHttp): Promise<OssConnection> {
  let made = connections.get(http)
  if (!made) {
    made = new WeakMap()
    connections.set(http, made)
  }
  let connection = made.get(credential)
  if (!connection) {
    connection = connect(credential, http)
    made.set(credential, connection)
  }
  return connection
}

async function connect(credential: UploadCredential, http: OssHttp): Promise<OssConnection> {
  const redact = createRedactor([
    credential.accessKeySecret,
    credential.securityToken,
    credential.accessKeyId,
  ])
  const [OSS, signing] = await Promise.all([loadAliOss(), http.putSigning?.()])
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
  const direct = signing ? { http, sign: signing(oss.options, oss.userAgent) } : undefined
  return { oss, redact, direct }
}

/**
 * The operations of one upload attempt on a shared connection: each request carries the
 * attempt's context. Cheap to make (one per attempt and credential).
 */
export class OssClient {
  readonly #oss: AliOss
  readonly #redact: (text: string) => string
  readonly #ctx: Ctx
  readonly #direct: OssConnection['direct']

  constructor(connection: OssConnection, context: RequestContext) {
    this.#oss = connection.oss
    this.#redact = connection.redact
    this.#ctx = { ctx: context }
    this.#direct = connection.direct
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody): Promise<string | undefined> {
    const direct = this.#direct
    if (direct) return this.#translated(() => this.#signedPut(direct, key, body))
    return this.#translated(async () => {
      const headers = { 'Content-Length': body.size }
      const params = this.#oss._objectRequestParams('PUT', key, { ...this.#ctx, headers })
      const { res } = await this.#oss.request({
        ...params,
        ...(body.stream === undefined ? { content: body.content } : { stream: body.stream }),
        successStatuses: [200],
        disabledMD5: true,
      })
      return reportedCrc(res)
    })
  }

  /**
   * PutObject signed by the platform and sent through the same HTTP layer; a failed answer is
   * turned into ali-oss's error (`requestError`), so `failureOf` sees what it sees from ali-oss.
   */
  async #signedPut(direct: NonNullable<OssConnection['direct']>, key: string, body: OssBody) {
    const { url, headers } = direct.sign(key, body.size)
    const request: OssHttpRequest = { method: 'PUT', headers, ...this.#ctx }
    if (body.stream !== undefined) request.stream = body.stream
    else if (body.content !== undefined) request.content = body.content
    const response = await direct.http.request(url, request)
    if (response.status !== 200) throw await this.#oss.requestError(response)
    return reportedCrc(response)
  }

  initiate(key: string): Promise<string> {
    return this.#translated(async () => (await this.#oss.initMultipartUpload(key, this.#ctx)).uploadId)
  }

  /** Resolves with the part's ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody): Promise<string> {
    return this.#translated(async () => {
      const data = { size: body.size, stream: body.stream, content: body.content }
      const options = { ...this.#ctx, disabledMD5: true }
      return (await this.#oss._uploadPart(key, uploadId, partNumber, data, options)).etag
    })
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  complete(key: string, uploadId: string, parts: readonly DonePart[]): Promise<string | undefined> {
    return this.#translated(async () => {
      const list = parts.map((p) => ({ number: p.number, etag: p.etag }))
      const { res } = await this.#oss.completeMultipartUpload(key, uploadId, list, this.#ctx)
      return reportedCrc(res)
    })
  }

  /** DeleteObject. */
  remove(key: string): Promise<void> {
    return this.#translated(async () => {
      await this.#oss.delete(key, this.#ctx)
    })
  }

  /** Every multipart upload under `prefix` (ListMultipartUploads, all pages). */
  listUploads(prefix: string): Promise<OpenUpload[]> {
    return this.#translated(async () => {
      const found: OpenUpload[] = []
      const query: Record<string, string | number> = { prefix, 'max-uploads': 1000 }
      for (;;) {
        const page = await this.#oss.listUploads(query, this.#ctx)
        for (const u of page.uploads ?? [])
          found.push({ key: u.name, uploadId: u.uploadId, initiated: Date.parse(u.initiated) })
        if (String(page.isTruncated) !== 'true' || !page.nextKeyMarker) break
        query['key-marker'] = page.nextKeyMarker
        query['upload-id-marker'] = page.nextUploadIdMarker
      }
      return found
    })
  }

  abort(key: string, uploadId: string): Promise<void> {
    return this.#translated(async () => {
      await this.#oss.abortMultipartUpload(key, uploadId, this.#ctx)
    })
  }

  /** Every part the server holds for the upload, ascending. */
  listParts(key: string, uploadId: string): Promise<DonePart[]> {
    return this.#translated(async () => {
      const parts: DonePart[] = []
      let marker: string | undefined
      for (;;) {
        const query: Record<string, string | number> = { 'max-parts': 1000 }
        if (marker !== undefined) query['part-number-marker'] = marker
        const page = await this.#oss.listParts(key, uploadId, query, this.#ctx)
        const listed = page.parts === undefined ? [] : Array.isArray(page.parts) ? page.parts : [page.parts]
        for (const p of listed)
          parts.push({ number: Number(p.PartNumber), etag: p.ETag, size: Number(p.Size) })
        if (String(page.isTruncated) !== 'true' || !page.nextPartNumberMarker) break
        marker = page.nextPartNumberMarker
      }
      return parts.sort((a, b) => a.number - b.number)
    })
  }

  /** The object's size, or `undefined` when there is no such object. */
  async size(key: string): Promise<number | undefined> {
    try {
      const { res } = await this.#translated(() => this.#oss.head(key, this.#ctx))
      return Number(res.headers['content-length'])
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
function reportedCrc(res: AliOssResponse): string | undefined {
  const value = res.headers['x-oss-hash-crc64ecma']
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text === '' ? undefined : text.trim()
}
