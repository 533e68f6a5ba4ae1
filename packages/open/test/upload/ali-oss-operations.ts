import { createRequire } from 'node:module'
import type { UploadCredential } from '@service-sdk/core'
import { createRedactor } from '@service-sdk/core/internal'
import { endpointUrl, type OssConnection, refusedCredential } from '../../src/upload/oss/connection.ts'
import { reportedCrc } from '../../src/upload/oss/operations.ts'
import type {
  DonePart,
  OssBody,
  OssHttp,
  OssOperations,
  RequestContext,
  UploadsMarker,
} from '../../src/upload/oss/types.ts'

// ali-oss 6.23, the reference: the SDK once sent its browser uploads through it, and its
// requests and error translation are what the SDK's own OSS layer (src/upload/oss) is held to.
// Test code only: no published package depends on ali-oss.

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

/** The operations through one ali-oss client: the reference our requests are held to. */
export class AliOssOperations implements OssOperations {
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

/** ali-oss's HTTP layer (its `urllib` option) over ours: the answer in urllib's shape. */
function urllibOf(http: OssHttp) {
  return {
    async request(url: string, params: Parameters<OssHttp['request']>[1]) {
      const answer = await http.request(url, params)
      const size = typeof answer.data === 'string' ? answer.data.length : answer.data.byteLength
      const res = {
        status: answer.status,
        statusCode: answer.status,
        headers: answer.headers,
        size,
        rt: 0,
        requestUrls: [url],
      }
      return { ...answer, res }
    },
  }
}

const OSS = createRequire(import.meta.url)('ali-oss') as new (options: object) => unknown

/** A connection of `credential` on ali-oss, over the HTTP layer `http`. */
export function aliOssConnection(credential: UploadCredential, http: OssHttp): OssConnection {
  const redact = createRedactor([
    credential.accessKeySecret,
    credential.securityToken,
    credential.accessKeyId,
  ])
  let oss: AliOss
  try {
    oss = new OSS({
      endpoint: endpointUrl(credential.endPoint),
      bucket: credential.bucket,
      accessKeyId: credential.accessKeyId,
      accessKeySecret: credential.accessKeySecret,
      stsToken: credential.securityToken,
      urllib: urllibOf(http),
      // Retries are the engine's; a refresh interval without a refresh function only silences
      // ali-oss's warning.
      retryMax: 0,
      refreshSTSTokenInterval: 24 * 3_600_000,
    }) as AliOss
  } catch (error) {
    throw refusedCredential(redact(error instanceof Error ? error.message : String(error)))
  }
  return { operations: new AliOssOperations(oss), redact }
}
