import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crc64 } from './crc64.ts'
import { directoryObjectStore } from './directory-store.ts'
import { memoryObjectStore } from './memory-store.ts'
import {
  type ByteSource,
  listedUploads,
  MIN_PART_SIZE,
  type MultipartUpload,
  type ObjectStore,
  ObjectStoreError,
} from './store.ts'

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'oss-store-test-'))
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

async function* chunks(...parts: Uint8Array[]): ByteSource {
  for (const part of parts) yield part
}
async function* failingAfter(part: Uint8Array): ByteSource {
  yield part
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
}
async function read(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const out: Uint8Array[] = []
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.push(chunk)
  return Buffer.concat(out)
}
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest()
const code = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ObjectStoreError)
    return (error as ObjectStoreError).code
  }
  throw new Error('expected an ObjectStoreError')
}

const stores: [string, () => { store: ObjectStore; dir?: string }][] = [
  ['memoryObjectStore', () => ({ store: memoryObjectStore() })],
  [
    'directoryObjectStore',
    () => {
      const dir = join(work, randomBytes(4).toString('hex'))
      return { store: directoryObjectStore(dir), dir }
    },
  ],
]

describe.each(stores)('%s', (_, make) => {
  const b = 'bkt'

  it('stores a body given in chunks, and serves it whole and in ranges', async () => {
    const { store } = make()
    const data = randomBytes(300_000)
    const put = await store.put({
      bucket: b,
      key: 'k',
      contentType: 'x/y',
      body: chunks(data.subarray(0, 1), data.subarray(1, 70_000), data.subarray(70_000)),
    })
    expect(put).toMatchObject({
      bucket: b,
      key: 'k',
      size: data.length,
      etag: `"${md5(data).toString('hex').toUpperCase()}"`,
    })
    const whole = await store.get(b, 'k')
    expect(whole?.range).toBeUndefined()
    expect((await read(whole?.body as ReadableStream<Uint8Array>)).equals(data)).toBe(true)
    for (const [range, start, end] of [
      [{ start: 69_999, end: 70_001 }, 69_999, 70_001],
      [{ start: 299_990 }, 299_990, 299_999],
      [{ start: 10, end: 10_000_000 }, 10, 299_999],
      [{ suffix: 5 }, 299_995, 299_999],
      [{ suffix: 1_000_000 }, 0, 299_999],
    ] as const) {
      const part = await store.get(b, 'k', range)
      expect(part?.range).toEqual({ start, end })
      expect(
        (await read(part?.body as ReadableStream<Uint8Array>)).equals(data.subarray(start, end + 1)),
      ).toBe(true)
    }
    expect(await code(store.get(b, 'k', { start: 300_000 }))).toBe('InvalidRange')
    expect(await store.get(b, 'missing')).toBeUndefined()
    expect(await store.get('other-bucket', 'k')).toBeUndefined()
  })

  it('stores empty objects', async () => {
    const { store } = make()
    const put = await store.put({ bucket: b, key: 'empty', contentType: 'x/y', body: chunks() })
    expect(put.etag).toBe('"D41D8CD98F00B204E9800998ECF8427E"')
    expect((await read((await store.get(b, 'empty'))?.body as ReadableStream<Uint8Array>)).length).toBe(0)
  })

  it('commits nothing when the body fails, is short, or has the wrong MD5', async () => {
    const { store, dir } = make()
    await store.put({ bucket: b, key: 'k', contentType: 'x/y', body: chunks(Buffer.from('old')) })
    await expect(
      store.put({ bucket: b, key: 'k', contentType: 'x/y', body: failingAfter(Buffer.from('new')) }),
    ).rejects.toThrow('aborted')
    expect(
      await code(
        store.put({
          bucket: b,
          key: 'k',
          contentType: 'x/y',
          body: chunks(Buffer.from('new')),
          contentLength: 4,
        }),
      ),
    ).toBe('IncompleteBody')
    const wrong = md5(Buffer.from('other')).toString('base64')
    expect(
      await code(
        store.put({
          bucket: b,
          key: 'k',
          contentType: 'x/y',
          body: chunks(Buffer.from('new')),
          contentMd5: wrong,
        }),
      ),
    ).toBe('InvalidDigest')
    expect(
      await code(
        store.put({
          bucket: b,
          key: 'k',
          contentType: 'x/y',
          body: chunks(Buffer.from('new')),
          contentMd5: 'abc',
        }),
      ),
    ).toBe('InvalidDigest')
    expect((await read((await store.get(b, 'k'))?.body as ReadableStream<Uint8Array>)).toString()).toBe('old')
    const right = md5(Buffer.from('new')).toString('base64')
    await store.put({
      bucket: b,
      key: 'k',
      contentType: 'x/y',
      body: chunks(Buffer.from('new')),
      contentMd5: right,
      contentLength: 3,
    })
    expect((await read((await store.get(b, 'k'))?.body as ReadableStream<Uint8Array>)).toString()).toBe('new')
    if (dir) {
      // Nothing left behind: one data file for the one object, nothing in flight.
      expect(await readdir(join(dir, 'data'))).toHaveLength(1)
      expect(await readdir(join(dir, 'tmp'))).toEqual([])
    }
  })

  it('keeps serving the bytes a reader started on while the object is replaced or deleted', async () => {
    const { store } = make()
    const first = randomBytes(2 * 1024 * 1024)
    await store.put({ bucket: b, key: 'k', contentType: 'x/y', body: chunks(first) })
    const reading = await store.get(b, 'k')
    await store.put({ bucket: b, key: 'k', contentType: 'x/y', body: chunks(Buffer.from('second')) })
    const deleting = await store.get(b, 'k')
    expect(await store.delete(b, 'k')).toBe(true)
    expect(await store.delete(b, 'k')).toBe(false)
    expect((await read(reading?.body as ReadableStream<Uint8Array>)).equals(first)).toBe(true)
    expect((await read(deleting?.body as ReadableStream<Uint8Array>)).toString()).toBe('second')
  })

  it('refuses to overwrite when asked to', async () => {
    const { store } = make()
    await store.put({ bucket: b, key: 'k', contentType: 'x/y', body: chunks(Buffer.from('1')) })
    expect(
      await code(
        store.put({
          bucket: b,
          key: 'k',
          contentType: 'x/y',
          body: chunks(Buffer.from('2')),
          forbidOverwrite: true,
        }),
      ),
    ).toBe('FileAlreadyExists')
  })

  it('runs a multipart upload: replaced parts, parts left out, validations, and cleanup', async () => {
    const { store, dir } = make()
    const part = (n: number) => randomBytes(MIN_PART_SIZE + n)
    const upload = await store.initiateMultipartUpload({
      bucket: b,
      key: 'mp',
      contentType: 'video/mp4',
      metadata: { a: '1' },
    })
    expect(upload.uploadId).toMatch(/^[0-9A-F]{32}$/)
    const up = (n: number, data: Uint8Array) =>
      store.uploadPart({ bucket: b, key: 'mp', uploadId: upload.uploadId, partNumber: n, body: chunks(data) })
    const p1 = part(1)
    const p2 = part(2)
    const p3 = Buffer.from('tail')
    await up(1, part(9)) // replaced below
    const e1 = await up(1, p1)
    const e2 = await up(2, p2)
    const e3 = await up(3, p3)
    const e4 = await up(4, part(4)) // never completed
    expect(e2).toMatchObject({
      partNumber: 2,
      size: p2.length,
      etag: `"${md5(p2).toString('hex').toUpperCase()}"`,
    })
    const listed = await store.listParts(b, 'mp', upload.uploadId)
    expect(listed.parts.map((p) => p.partNumber)).toEqual([1, 2, 3, 4])
    expect(listed.upload).toMatchObject({ key: 'mp', contentType: 'video/mp4' })
    expect(await store.listMultipartUploads({ bucket: b })).toMatchObject([{ uploadId: upload.uploadId }])

    const complete = (parts: { partNumber: number; etag: string }[]) =>
      store.completeMultipartUpload({ bucket: b, key: 'mp', uploadId: upload.uploadId, parts })
    const ref = (p: { partNumber: number; etag: string }) => ({ partNumber: p.partNumber, etag: p.etag })
    expect(await code(complete([]))).toBe('MalformedXML')
    expect(await code(complete([ref(e2), ref(e1)]))).toBe('InvalidPartOrder')
    expect(await code(complete([ref(e1), ref(e1)]))).toBe('InvalidPartOrder')
    expect(await code(complete([ref(e1), { partNumber: 2, etag: e1.etag }]))).toBe('InvalidPart')
    expect(await code(complete([ref(e1), { partNumber: 5, etag: e1.etag }]))).toBe('InvalidPart')
    expect(await code(complete([ref(e3), ref(e4)]))).toBe('EntityTooSmall')
    expect(await code(store.listParts(b, 'other-key', upload.uploadId))).toBe('NoSuchUpload')

    const object = await complete([ref(e1), ref(e2), ref(e3)])
    const expectedEtag = createHash('md5')
      .update(Buffer.concat([md5(p1), md5(p2), md5(p3)]))
      .digest('hex')
      .toUpperCase()
    expect(object).toMatchObject({
      size: p1.length + p2.length + p3.length,
      etag: `"${expectedEtag}-3"`,
      contentType: 'video/mp4',
    })
    expect(object.metadata).toEqual({ a: '1' })
    const got = await store.get(b, 'mp', { start: p1.length - 2, end: p1.length + 1 })
    expect(
      (await read(got?.body as ReadableStream<Uint8Array>)).equals(
        Buffer.concat([p1.subarray(-2), p2.subarray(0, 2)]),
      ),
    ).toBe(true)
    const whole = await store.get(b, 'mp')
    expect((await read(whole?.body as ReadableStream<Uint8Array>)).equals(Buffer.concat([p1, p2, p3]))).toBe(
      true,
    )

    expect(await code(up(5, p3))).toBe('NoSuchUpload')
    expect(await code(complete([ref(e1)]))).toBe('NoSuchUpload')
    expect(await store.listMultipartUploads()).toEqual([])
    if (dir) {
      // The three parts became the object's data; the replaced and the unused ones are gone.
      expect(await readdir(join(dir, 'data'))).toHaveLength(3)
      expect(await readdir(join(dir, 'uploads'))).toEqual([])
    }
  })

  it('drops a part that arrives after its upload was aborted', async () => {
    const { store } = make()
    const { uploadId } = await store.initiateMultipartUpload({ bucket: b, key: 'ab', contentType: 'x/y' })
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    async function* slow(): ByteSource {
      yield Buffer.from('first half ')
      await gate
      yield Buffer.from('second half')
    }
    const uploading = store.uploadPart({ bucket: b, key: 'ab', uploadId, partNumber: 1, body: slow() })
    await new Promise((resolve) => setTimeout(resolve, 20))
    await store.abortMultipartUpload(b, 'ab', uploadId)
    release()
    expect(await code(uploading)).toBe('NoSuchUpload')
    expect(await code(store.abortMultipartUpload(b, 'ab', uploadId))).toBe('NoSuchUpload')
    expect(await code(store.listParts(b, 'ab', '../../etc'))).toBe('NoSuchUpload')
  })

  it('lists objects by bucket and prefix in byte order', async () => {
    const { store } = make()
    for (const [bucket, key] of [
      ['b1', 'z'],
      ['b1', 'a/ü'],
      ['b1', 'a/z'],
      ['b2', 'a/1'],
    ] as const) {
      await store.put({ bucket, key, contentType: 'x/y', body: chunks(Buffer.from(key)) })
    }
    expect((await store.list()).map((o) => `${o.bucket}:${o.key}`)).toEqual([
      'b1:a/z',
      'b1:a/ü',
      'b1:z',
      'b2:a/1',
    ])
    expect((await store.list({ bucket: 'b1', prefix: 'a/' })).map((o) => o.key)).toEqual(['a/z', 'a/ü'])
  })

  it('keeps attributes and the CRC from put through multipart, and replaces attributes alone', async () => {
    const { store } = make()
    const attributes = { headers: { 'cache-control': 'no-cache' }, tags: { a: '1' } }
    const put = await store.put({
      bucket: b,
      key: 'attr',
      contentType: 'x/y',
      body: chunks(Buffer.from('123456789')),
      attributes,
    })
    expect(put.crc64).toBe('11051210869376104954')
    expect((await store.head(b, 'attr'))?.attributes).toEqual(attributes)

    const updated = await store.setAttributes(b, 'attr', { acl: 'private' })
    expect(updated?.attributes).toEqual({ acl: 'private' })
    const head = await store.head(b, 'attr')
    expect(head?.attributes).toEqual({ acl: 'private' })
    expect(head?.lastModified).toEqual(put.lastModified)
    expect(head?.etag).toBe(put.etag)
    expect(await store.setAttributes(b, 'missing', {})).toBeUndefined()

    const upload = await store.initiateMultipartUpload({
      bucket: b,
      key: 'multi',
      contentType: 'x/y',
      attributes,
    })
    const one = randomBytes(MIN_PART_SIZE)
    const two = Buffer.from('tail')
    const p1 = await store.uploadPart({
      bucket: b,
      key: 'multi',
      uploadId: upload.uploadId,
      partNumber: 1,
      body: chunks(one),
    })
    const p2 = await store.uploadPart({
      bucket: b,
      key: 'multi',
      uploadId: upload.uploadId,
      partNumber: 2,
      body: chunks(two),
    })
    const done = await store.completeMultipartUpload({
      bucket: b,
      key: 'multi',
      uploadId: upload.uploadId,
      parts: [p1, p2].map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
    })
    expect(done.crc64).toBe(crc64(Buffer.concat([one, two])))
    expect((await store.head(b, 'multi'))?.attributes).toEqual(attributes)
  })
})

describe('listedUploads', () => {
  const upload = (bucket: string, uploadId: string, initiated: number): MultipartUpload => ({
    bucket,
    key: 'k',
    uploadId,
    contentType: 'x/y',
    initiated: new Date(initiated),
  })

  it('keeps the filter bucket uploads (all without one), oldest first', () => {
    const uploads = [upload('a', 'late', 3000), upload('b', 'other', 1000), upload('a', 'early', 2000)]
    expect(listedUploads(uploads, { bucket: 'a' }).map((u) => u.uploadId)).toEqual(['early', 'late'])
    expect(listedUploads(uploads, {}).map((u) => u.uploadId)).toEqual(['other', 'early', 'late'])
  })
})
