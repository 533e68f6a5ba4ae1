import { failureOf, unreadableAnswer } from './failure.ts'
import { md5Base64 } from './hmac.ts'
import type { OssRequest, RequestSigner } from './request.ts'
import type {
  DonePart,
  OpenUpload,
  OssBody,
  OssHttp,
  OssHttpRequest,
  OssHttpResponse,
  OssOperations,
  RequestContext,
  UploadsMarker,
} from './types.ts'
import { utf8Length } from './utf8-length.ts'
import { childrenNamed, readXml, textOf, type XmlElement } from './xml.ts'

/**
 * Every request of an upload, on every platform: signed by `sign` (with a credential held here,
 * or by the upload proxy), sent through the platform's HTTP layer and read here (`xml.ts`). The
 * requests are the ones ali-oss 6.23 sends (`operations.test.ts` holds them to its output), and a
 * failed answer becomes what ali-oss's `requestError` would have made of it (status, OSS code,
 * message, request id), then an `OssFailure` (`failure.ts`).
 */
export class SignedOss implements OssOperations {
  readonly #sign: RequestSigner
  readonly #http: OssHttp
  readonly #redact: (text: string) => string

  constructor(sign: RequestSigner, http: OssHttp, redact: (text: string) => string) {
    this.#sign = sign
    this.#http = http
    this.#redact = redact
  }

  /** Sends `request`; resolves with the answer when its status is `ok`, else rejects with its failure. */
  async #send(
    request: OssRequest,
    ok: number,
    ctx: RequestContext,
    body?: { stream?: unknown; content?: string | Uint8Array | Blob },
  ): Promise<OssHttpResponse> {
    const signed = this.#sign(request)
    const { url, target, headers } = signed instanceof Promise ? await signed : signed
    const params: OssHttpRequest = { method: METHOD[request.op], headers, ctx, target }
    if (body?.stream !== undefined) params.stream = body.stream
    else if (body?.content !== undefined) params.content = body.content
    const response = await this.#http.request(url, params)
    if (response.status !== ok) throw failureOf(answerError(response), this.#redact)
    return response
  }

  /** The answer's XML document, rooted at `root`. */
  #document(op: string, response: OssHttpResponse, root: string): XmlElement {
    const document = readXml(textOfBody(response.data), root)
    if (!document) throw unreadableAnswer(op, response.status, requestIdOf(response))
    return document
  }

  async put(key: string, body: OssBody, ctx: RequestContext, type?: string): Promise<string | undefined> {
    const response = await this.#send({ op: 'PutObject', key, length: body.size, type }, 200, ctx, body)
    return reportedCrc(response.headers)
  }

  async initiate(key: string, ctx: RequestContext, type?: string): Promise<string> {
    const op = 'InitiateMultipartUpload'
    const response = await this.#send({ op, key, type }, 200, ctx)
    const uploadId = textOf(this.#document(op, response, 'InitiateMultipartUploadResult'), 'UploadId')
    if (!uploadId) throw unreadableAnswer(op, response.status, requestIdOf(response))
    return uploadId
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody, ctx: RequestContext) {
    const request: OssRequest = { op: 'UploadPart', key, uploadId, partNumber, length: body.size }
    const response = await this.#send(request, 200, ctx, body)
    const etag = headerOf(response, 'etag')
    if (!etag) throw unreadableAnswer('UploadPart', response.status, requestIdOf(response))
    return quotedEtag(etag)
  }

  async complete(key: string, uploadId: string, parts: readonly DonePart[], ctx: RequestContext) {
    const xml = completeXml(parts)
    const content = { type: 'application/xml', md5: md5Base64(xml), length: utf8Length(xml) }
    const request: OssRequest = { op: 'CompleteMultipartUpload', key, uploadId, content }
    const response = await this.#send(request, 200, ctx, { content: xml })
    return reportedCrc(response.headers)
  }

  async remove(key: string, ctx: RequestContext): Promise<void> {
    await this.#send({ op: 'DeleteObject', key }, 204, ctx)
  }

  async abort(key: string, uploadId: string, ctx: RequestContext): Promise<void> {
    await this.#send({ op: 'AbortMultipartUpload', key, uploadId }, 204, ctx)
  }

  async listPartsPage(key: string, uploadId: string, after: string | undefined, ctx: RequestContext) {
    const query: Record<string, string | number> = { 'max-parts': 1000 }
    if (after !== undefined) query['part-number-marker'] = after
    const response = await this.#send({ op: 'ListParts', key, uploadId, query }, 200, ctx)
    const page = listPartsOf(textOfBody(response.data))
    if (!page) throw unreadableAnswer('ListParts', response.status, requestIdOf(response))
    return page
  }

  async listUploadsPage(prefix: string, after: UploadsMarker | undefined, ctx: RequestContext) {
    const query: Record<string, string | number> = { prefix, 'max-uploads': 1000 }
    if (after) {
      query['key-marker'] = after.key
      query['upload-id-marker'] = after.uploadId
    }
    const response = await this.#send({ op: 'ListMultipartUploads', key: '', query }, 200, ctx)
    const page = listUploadsOf(textOfBody(response.data))
    if (!page) throw unreadableAnswer('ListMultipartUploads', response.status, requestIdOf(response))
    return page
  }

  async size(key: string, ctx: RequestContext): Promise<number> {
    const response = await this.#send({ op: 'HeadObject', key }, 200, ctx)
    return Number(headerOf(response, 'content-length'))
  }
}

const METHOD: Record<OssRequest['op'], string> = {
  PutObject: 'PUT',
  InitiateMultipartUpload: 'POST',
  UploadPart: 'PUT',
  CompleteMultipartUpload: 'POST',
  ListParts: 'GET',
  AbortMultipartUpload: 'DELETE',
  HeadObject: 'HEAD',
  DeleteObject: 'DELETE',
  ListMultipartUploads: 'GET',
}

/** `x-oss-hash-crc64ecma`: a decimal string; `undefined` when absent (an older store). */
export function reportedCrc(headers: OssHttpResponse['headers']): string | undefined {
  const value = headers['x-oss-hash-crc64ecma']
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text === '' ? undefined : text.trim()
}

/** CompleteMultipartUpload's body, as ali-oss writes it: parts ascending, each number once. */
export function completeXml(parts: readonly DonePart[]): string {
  const sorted = [...parts].sort((a, b) => a.number - b.number)
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUpload>\n']
  for (const [i, p] of sorted.entries()) {
    if (i > 0 && p.number === sorted[i - 1]?.number) continue
    out.push(`<Part>\n<PartNumber>${p.number}</PartNumber>\n<ETag>${escapeText(p.etag)}</ETag>\n</Part>\n`)
  }
  out.push('</CompleteMultipartUpload>')
  return out.join('')
}

/** `&`, `<` and `>` escaped (an ETag has none; ali-oss writes it unescaped). */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** An ETag as OSS sends it in headers, quoted: ListParts may send it entity-escaped or bare. */
export function quotedEtag(etag: string): string {
  const trimmed = etag.trim()
  return /^".*"$/.test(trimmed) ? trimmed : `"${trimmed.replace(/^"|"$/g, '')}"`
}

/** A decimal count (`PartNumber`, `Size`), or `undefined` for anything else. */
function countOf(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined
}

/** `IsTruncated`: `true` or `false` (any case); `undefined` for anything else. */
function flagOf(text: string | undefined): boolean | undefined {
  const lower = text?.toLowerCase()
  return lower === 'true' ? true : lower === 'false' || lower === undefined ? false : undefined
}

/** A ListPartsResult page: its parts and the marker of the next page; `undefined` when unreadable. */
export function listPartsOf(xml: string): { parts: DonePart[]; next: string | undefined } | undefined {
  const document = readXml(xml, 'ListPartsResult')
  if (!document) return undefined
  const parts: DonePart[] = []
  for (const part of childrenNamed(document, 'Part')) {
    const number = countOf(textOf(part, 'PartNumber'))
    const size = countOf(textOf(part, 'Size'))
    const etag = textOf(part, 'ETag')
    if (number === undefined || number < 1 || size === undefined || !etag) return undefined
    parts.push({ number, etag: quotedEtag(etag), size })
  }
  const truncated = flagOf(textOf(document, 'IsTruncated'))
  if (truncated === undefined) return undefined
  const marker = textOf(document, 'NextPartNumberMarker')
  // Like ali-oss: a truncated page without a marker ends the listing.
  return { parts, next: truncated && marker ? marker : undefined }
}

/** A ListMultipartUploadsResult page; `undefined` when unreadable. */
export function listUploadsOf(
  xml: string,
): { uploads: OpenUpload[]; next: UploadsMarker | undefined } | undefined {
  const document = readXml(xml, 'ListMultipartUploadsResult')
  if (!document) return undefined
  const uploads: OpenUpload[] = []
  for (const upload of childrenNamed(document, 'Upload')) {
    const key = textOf(upload, 'Key')
    const uploadId = textOf(upload, 'UploadId')
    if (key === undefined || !uploadId) return undefined
    uploads.push({ key, uploadId, initiated: Date.parse(textOf(upload, 'Initiated') ?? '') })
  }
  const truncated = flagOf(textOf(document, 'IsTruncated'))
  if (truncated === undefined) return undefined
  const key = textOf(document, 'NextKeyMarker')
  const next = truncated && key ? { key, uploadId: textOf(document, 'NextUploadIdMarker') ?? '' } : undefined
  return { uploads, next }
}

/** What a failed answer says, as ali-oss's `requestError` reads it (the fields `failureOf` uses). */
export function answerError(response: OssHttpResponse): {
  status: number
  code: string | undefined
  message: string
  requestId: string | undefined
} {
  const { status } = response
  const text = textOfBody(response.data)
  if (text.length > 0) return errorDocument(text, status, requestIdOf(response))
  const requestId = requestIdOf(response)
  // No body (a HEAD, or a proxy's answer): OSS puts its error document in `x-oss-err`.
  const encoded = headerOf(response, 'x-oss-err')
  const document = encoded === undefined ? undefined : fromBase64(encoded)
  if (document) return { ...errorDocument(document, status), requestId }
  if (status === 404) return { status, code: 'NoSuchKey', message: 'Object not exists', requestId }
  if (status === 412)
    return { status, code: 'PreconditionFailed', message: 'Pre condition failed', requestId }
  return { status, code: undefined, message: `Unknow error, status: ${status}`, requestId }
}

/**
 * OSS's error document: its code, message (and failed condition) and request id. Nothing else of
 * it is kept: it may hold the string that was signed and the signature.
 */
function errorDocument(xml: string, status: number, requestId?: string) {
  const document = readXml(xml, 'Error')
  if (!document) {
    const message = `an answer of status ${status} that is not an OSS error document`
    return { status, code: undefined, message, requestId }
  }
  const condition = textOf(document, 'Condition')
  const message =
    (textOf(document, 'Message') || `unknow request error, status: ${status}`) +
    (condition ? ` (condition: ${condition})` : '')
  return {
    status,
    code: textOf(document, 'Code') || undefined,
    message,
    requestId: textOf(document, 'RequestId'),
  }
}

function headerOf(response: OssHttpResponse, name: string): string | undefined {
  const value = response.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function requestIdOf(response: OssHttpResponse): string | undefined {
  return headerOf(response, 'x-oss-request-id') || undefined
}

const decoder = new TextDecoder()

/** Base64 as UTF-8 text (Buffer's lenience: `undefined` instead of a throw for a malformed value). */
function fromBase64(encoded: string): string | undefined {
  try {
    return decoder.decode(Uint8Array.from(atob(encoded.trim()), (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

function textOfBody(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : decoder.decode(data)
}
