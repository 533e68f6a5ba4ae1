import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { crc64 } from './crc64.ts'
import type { Digested } from './digest.ts'
import { isUploadId } from './ids.ts'
import {
  completedRecord,
  copyRecord,
  partRecord,
  putRecord,
  uploadRecord,
  withAttributes,
} from './records.ts'
import type { ObjectAttributes, PutInput } from './store.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const digested = (data: Uint8Array): Digested => ({
  size: data.byteLength,
  md5: createHash('md5').update(data).digest(),
  crc64: crc64(data),
})
const md5Etag = (data: Uint8Array) => `"${createHash('md5').update(data).digest('hex').toUpperCase()}"`

async function* noBody() {}

const attributes = (): ObjectAttributes => ({
  headers: { 'cache-control': 'no-cache' },
  acl: 'private',
  tags: { team: 'acme' },
})

describe('putRecord', () => {
  it('describes the body as digested: size, quoted upper-case MD5 ETag, CRC-64, content type', () => {
    const data = bytes('hello, object')
    const record = putRecord(
      { bucket: 'b', key: 'k', contentType: 'text/plain', body: noBody() },
      digested(data),
    )
    expect(record).toMatchObject({
      bucket: 'b',
      key: 'k',
      size: data.byteLength,
      etag: md5Etag(data),
      crc64: crc64(data),
      contentType: 'text/plain',
    })
    expect(record.lastModified).toBeInstanceOf(Date)
    expect(record).not.toHaveProperty('metadata')
    expect(record).not.toHaveProperty('attributes')
  })

  it('keeps copies of the user metadata and attributes: changing the request later changes nothing', () => {
    const input: PutInput = {
      bucket: 'b',
      key: 'k',
      contentType: 'image/png',
      body: noBody(),
      metadata: { author: 'ada' },
      attributes: attributes(),
    }
    const record = putRecord(input, digested(bytes('x')))
    ;(input.metadata as Record<string, string>).author = 'grace'
    ;(input.attributes?.tags as Record<string, string>).team = 'globex'
    expect(record.metadata).toEqual({ author: 'ada' })
    expect(record.attributes).toEqual(attributes())
  })
})

describe('multipart records', () => {
  const one = bytes('a'.repeat(1000))
  const two = bytes('b'.repeat(10))

  it('an upload has an OSS-style id and copies of its metadata and attributes', () => {
    const metadata = { author: 'ada' }
    const upload = uploadRecord({
      bucket: 'b',
      key: 'k',
      contentType: 'video/mp4',
      metadata,
      attributes: attributes(),
    })
    metadata.author = 'grace'
    expect(isUploadId(upload.uploadId)).toBe(true)
    expect(upload).toMatchObject({
      bucket: 'b',
      key: 'k',
      contentType: 'video/mp4',
      metadata: { author: 'ada' },
    })
    expect(upload.attributes).toEqual(attributes())
    expect(uploadRecord({ bucket: 'b', key: 'k', contentType: 'x/y' }).uploadId).not.toBe(upload.uploadId)
  })

  it('a part carries its number, size, ETag and CRC-64', () => {
    expect(partRecord(3, digested(one))).toMatchObject({
      partNumber: 3,
      size: one.byteLength,
      etag: md5Etag(one),
      crc64: crc64(one),
    })
  })

  it('the completed object: summed size, "<md5 of MD5s>-<n>" ETag, the CRC-64 of the whole, the upload metadata', () => {
    const upload = uploadRecord({
      bucket: 'b',
      key: 'k',
      contentType: 'video/mp4',
      metadata: { author: 'ada' },
    })
    const parts = [partRecord(1, digested(one)), partRecord(2, digested(two))]
    const object = completedRecord(upload, parts)
    const md5s = Buffer.concat([one, two].map((p) => createHash('md5').update(p).digest()))
    expect(object).toMatchObject({
      bucket: 'b',
      key: 'k',
      size: one.byteLength + two.byteLength,
      etag: `"${createHash('md5').update(md5s).digest('hex').toUpperCase()}-2"`,
      crc64: crc64(Buffer.concat([one, two])),
      contentType: 'video/mp4',
      metadata: { author: 'ada' },
    })
  })

  it('a part stored before CRC-64s were kept leaves the completed object without one', () => {
    const upload = uploadRecord({ bucket: 'b', key: 'k', contentType: 'x/y' })
    const { crc64: _, ...old } = partRecord(1, digested(one))
    expect(completedRecord(upload, [old, partRecord(2, digested(two))])).not.toHaveProperty('crc64')
  })
})

describe('withAttributes', () => {
  it('replaces the attributes with a copy and leaves the rest of the record as it was', () => {
    const record = putRecord(
      {
        bucket: 'b',
        key: 'k',
        contentType: 'text/plain',
        body: noBody(),
        attributes: { acl: 'public-read' },
      },
      digested(bytes('x')),
    )
    const given = attributes()
    const updated = withAttributes(record, given)
    given.acl = 'public-read-write'
    expect(updated).toEqual({ ...record, attributes: attributes() })
    expect(record.attributes).toEqual({ acl: 'public-read' })
  })
})

describe('copyRecord', () => {
  it('gives a copy whose changes do not reach the record', () => {
    const record = putRecord(
      { bucket: 'b', key: 'k', contentType: 'text/plain', body: noBody(), metadata: { a: '1' } },
      digested(bytes('x')),
    )
    const copy = copyRecord(record)
    ;(copy.metadata as Record<string, string>).a = '2'
    copy.lastModified.setTime(0)
    expect(record.metadata).toEqual({ a: '1' })
    expect(record.lastModified.getTime()).not.toBe(0)
  })
})
