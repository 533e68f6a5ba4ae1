import { readSmallBody, webStreamChunks } from '../protocol/body-source.ts'
import { type QueryParams, queryValue } from '../protocol/request.ts'
import { encodeRfc3986 } from '../protocol/sign-v4.ts'
import { parseXml, type XmlElement, type XmlNode, XmlSyntaxError } from '../protocol/xml.ts'
import { parseRange } from '../store/range.ts'
import { type CompletePart, MAX_PART_NUMBER, type MultipartUpload } from '../store/store.ts'
import { byteOrder, limitOf, page } from './listing.ts'
import { attributesFrom, userMetadata } from './object-attributes.ts'
import { copySource } from './object-ops.ts'
import {
  contentLength,
  DEFAULT_TYPE,
  encryptionHeaders,
  OperationError,
  type OperationRequest,
  writeHeaders,
  xmlResponse,
} from './operation.ts'

/** 10,000 parts of a CompleteMultipartUpload document fit well within this. */
const MAX_COMPLETE_BODY = 4 * 1024 * 1024

/** The part number of an UploadPart, validated as OSS does (an integer in 1..10000). */
export function partNumberOf(query: QueryParams): number | undefined {
  const text = queryValue(query, 'partNumber')
  if (text === undefined || !/^\d+$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 && n <= MAX_PART_NUMBER ? n : undefined
}

async function initiateMultipartUpload(r: OperationRequest): Promise<Response> {
  const upload = await r.store.initiateMultipartUpload({
    bucket: r.bucket,
    key: r.key,
    contentType: r.headers.get('content-type') || DEFAULT_TYPE,
    metadata: userMetadata(r.headers),
    attributes: attributesFrom(r.headers),
  })
  return xmlResponse(
    'InitiateMultipartUploadResult',
    [
      ['Bucket', upload.bucket],
      ['Key', upload.key],
      ['UploadId', upload.uploadId],
    ],
    encryptionHeaders(upload.attributes),
  )
}

function requirePartNumber(r: OperationRequest): number {
  const partNumber = partNumberOf(r.query)
  if (partNumber === undefined) {
    throw new OperationError(
      'InvalidArgument',
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive.`,
      { ArgumentName: 'partNumber', ArgumentValue: queryValue(r.query, 'partNumber') ?? '' },
    )
  }
  return partNumber
}

async function uploadPart(r: OperationRequest): Promise<Response> {
  const partNumber = requirePartNumber(r)
  const part = await r.store.uploadPart({
    bucket: r.bucket,
    key: r.key,
    uploadId: queryValue(r.query, 'uploadId') ?? '',
    partNumber,
    body: r.body(),
    contentMd5: r.headers.get('content-md5') ?? undefined,
    contentLength: contentLength(r.headers),
    corruptAt: r.corruptAt,
  })
  return new Response(null, { headers: { ...writeHeaders(part), 'content-length': '0' } })
}

/** UploadPartCopy: a part from a range (`x-oss-copy-source-range: bytes=a-b`) of an object. */
async function uploadPartCopy(r: OperationRequest): Promise<Response> {
  const partNumber = requirePartNumber(r)
  const source = await copySource(r)
  const range = parseRange(r.headers.get('x-oss-copy-source-range'))
  const found = await r.store.get(r.bucket, source.key, range)
  if (!found) throw new OperationError('NoSuchKey', undefined, { Key: source.key })
  const part = await r.store.uploadPart({
    bucket: r.bucket,
    key: r.key,
    uploadId: queryValue(r.query, 'uploadId') ?? '',
    partNumber,
    body: webStreamChunks(found.body),
  })
  return xmlResponse(
    'CopyPartResult',
    [
      ['LastModified', part.lastModified.toISOString()],
      ['ETag', part.etag],
    ],
    writeHeaders(part),
  )
}

/** `<CompleteMultipartUpload><Part><PartNumber/><ETag/></Part>...`; anything else is MalformedXML. */
export function parseCompleteBody(text: string): CompletePart[] {
  let root: XmlElement
  try {
    root = parseXml(text)
  } catch (error) {
    if (error instanceof XmlSyntaxError)
      throw new OperationError('MalformedXML', undefined, { Detail: error.message })
    throw error
  }
  if (root.name !== 'CompleteMultipartUpload') throw new OperationError('MalformedXML')
  return root.children.map((part) => {
    const field = (name: string) => {
      const found = part.children.filter((c) => c.name === name)
      return found.length === 1 ? (found[0] as XmlElement).text.trim() : undefined
    }
    const number = field('PartNumber')
    const etag = field('ETag')
    if (part.name !== 'Part' || number === undefined || !/^\d+$/.test(number) || etag === undefined) {
      throw new OperationError('MalformedXML')
    }
    return { partNumber: Number(number), etag }
  })
}

async function completeMultipartUpload(r: OperationRequest): Promise<Response> {
  const uploadId = queryValue(r.query, 'uploadId') ?? ''
  const raw = await readSmallBody(r.body(), MAX_COMPLETE_BODY)
  if (raw === undefined)
    throw new OperationError('MalformedXML', 'The CompleteMultipartUpload document is too large.')
  let parts: readonly CompletePart[]
  if (r.headers.get('x-oss-complete-all')?.toLowerCase() === 'yes') {
    if (raw.length > 0)
      throw new OperationError('InvalidArgument', 'x-oss-complete-all does not take a body.')
    const listed = await r.store.listParts(r.bucket, r.key, uploadId)
    parts = listed.parts
  } else {
    parts = parseCompleteBody(raw.toString('utf8'))
  }
  const object = await r.store.completeMultipartUpload({
    bucket: r.bucket,
    key: r.key,
    uploadId,
    parts,
    forbidOverwrite: r.headers.get('x-oss-forbid-overwrite') === 'true',
  })
  const { 'content-md5': _, ...headers } = writeHeaders(object)
  return xmlResponse(
    'CompleteMultipartUploadResult',
    [
      ['Location', `${r.origin}/${encodeRfc3986(object.key).replace(/%2F/g, '/')}`],
      ['Bucket', object.bucket],
      ['Key', object.key],
      ['ETag', object.etag],
    ],
    headers,
  )
}

async function abortMultipartUpload(r: OperationRequest): Promise<Response> {
  await r.store.abortMultipartUpload(r.bucket, r.key, queryValue(r.query, 'uploadId') ?? '')
  return new Response(null, { status: 204 })
}

async function listParts(r: OperationRequest): Promise<Response> {
  const max = limitOf(r.query, 'max-parts', 1000, 1000)
  const markerText = queryValue(r.query, 'part-number-marker') || '0'
  if (!/^\d+$/.test(markerText))
    throw new OperationError('InvalidArgument', 'part-number-marker must be a number.')
  const marker = Number(markerText)
  const { upload, parts } = await r.store.listParts(r.bucket, r.key, queryValue(r.query, 'uploadId') ?? '')
  const after = parts.filter((p) => p.partNumber > marker)
  const page = after.slice(0, max)
  const next = page.at(-1)?.partNumber ?? marker
  return xmlResponse('ListPartsResult', [
    ['Bucket', upload.bucket],
    ['Key', upload.key],
    ['UploadId', upload.uploadId],
    ['PartNumberMarker', marker],
    ['NextPartNumberMarker', next],
    ['MaxParts', max],
    ['IsTruncated', after.length > page.length],
    ...page.map(
      (p): XmlNode => [
        'Part',
        [
          ['PartNumber', p.partNumber],
          ['LastModified', p.lastModified.toISOString()],
          ['ETag', p.etag],
          p.crc64 === undefined ? undefined : ['HashCrc64ecma', p.crc64],
          ['Size', p.size],
        ],
      ],
    ),
  ])
}

/**
 * `GET /?uploads`: uploads in progress under `prefix`, by key then upload id (byte order),
 * after `key-marker` / `upload-id-marker`, grouped by `delimiter`.
 */
async function listMultipartUploads(r: OperationRequest): Promise<Response> {
  const prefix = queryValue(r.query, 'prefix') ?? ''
  const delimiter = queryValue(r.query, 'delimiter') ?? ''
  const keyMarker = queryValue(r.query, 'key-marker') ?? ''
  const uploadIdMarker = queryValue(r.query, 'upload-id-marker') ?? ''
  const max = limitOf(r.query, 'max-uploads', 1000, 1000)
  const all = (await r.store.listMultipartUploads({ bucket: r.bucket }))
    .filter((u) => u.key.startsWith(prefix))
    .sort((a, b) => byteOrder(a.key, b.key) || byteOrder(a.uploadId, b.uploadId))
  // After the key marker; with an upload id marker, that key's uploads with a greater id too.
  const after = all.filter((u) => {
    const byKey = byteOrder(u.key, keyMarker)
    return byKey > 0 || (byKey === 0 && uploadIdMarker !== '' && byteOrder(u.uploadId, uploadIdMarker) > 0)
  })
  const { entries, prefixes, truncated, last } = page(after, (u) => u.key, {
    prefix,
    delimiter,
    max,
    marker: keyMarker,
  })
  return xmlResponse('ListMultipartUploadsResult', [
    ['Bucket', r.bucket],
    ['KeyMarker', keyMarker],
    ['UploadIdMarker', uploadIdMarker],
    ['NextKeyMarker', truncated ? (last?.name ?? '') : ''],
    ['NextUploadIdMarker', truncated ? (last?.item?.uploadId ?? '') : ''],
    ['Delimiter', delimiter],
    ['Prefix', prefix],
    ['MaxUploads', max],
    ['IsTruncated', truncated],
    ...entries.map(
      (u: MultipartUpload): XmlNode => [
        'Upload',
        [
          ['Key', u.key],
          ['UploadId', u.uploadId],
          ['Initiated', u.initiated.toISOString()],
        ],
      ],
    ),
    ...prefixes.map((p): XmlNode => ['CommonPrefixes', [['Prefix', p]]]),
  ])
}

export const MULTIPART_OPERATIONS = {
  InitiateMultipartUpload: initiateMultipartUpload,
  UploadPart: uploadPart,
  UploadPartCopy: uploadPartCopy,
  CompleteMultipartUpload: completeMultipartUpload,
  AbortMultipartUpload: abortMultipartUpload,
  ListParts: listParts,
  ListMultipartUploads: listMultipartUploads,
}
