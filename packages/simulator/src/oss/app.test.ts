import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type AliOssCheckpoint,
  type AliOssOptions,
  aliOss,
  recordingUrllib,
  rejection,
} from '../../test/support/ali-oss.ts'
import { type RunningOss, startOss } from '../../test/support/oss-server.ts'
import type { OssCredential, OssRequestContext } from './protocol/credentials.ts'
import { ossError } from './protocol/errors.ts'
import { directoryObjectStore } from './store/directory-store.ts'
import { memoryObjectStore } from './store/memory-store.ts'
import type { ObjectStore } from './store/store.ts'

const BUCKET = 'sim-bucket'
const DIR = 'uploads/u-1/'
const KiB = 1024
const HOUR = 3_600_000

const md5Hex = (data: Uint8Array) => createHash('md5').update(data).digest('hex').toUpperCase()

const credentials: Record<string, OssCredential> = {
  'STS.upload': {
    accessKeyId: 'STS.upload',
    accessKeySecret: 'upload-secret',
    securityToken: 'CAIS-token-1',
    bucket: BUCKET,
    dir: DIR,
    expiresAt: Date.now() + HOUR,
  },
  'STS.expired': {
    accessKeyId: 'STS.expired',
    accessKeySecret: 'expired-secret',
    securityToken: 'CAIS-token-2',
    bucket: BUCKET,
    dir: DIR,
    expiresAt: Date.now() - 1000,
  },
  'LTAI.admin': { accessKeyId: 'LTAI.admin', accessKeySecret: 'admin-secret', bucket: BUCKET, dir: '' },
  'LTAI.disabled': {
    accessKeyId: 'LTAI.disabled',
    accessKeySecret: 'x',
    bucket: BUCKET,
    dir: '',
    expiresAt: Date.now() - 1000,
  },
  'LTAI.other': {
    accessKeyId: 'LTAI.other',
    accessKeySecret: 'other-secret',
    bucket: 'other-bucket',
    dir: '',
  },
}

let work: string
let bigFile: string
let bigData: Buffer

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'oss-app-test-'))
  bigData = randomBytes(3 * 1024 * KiB + 12_345)
  bigFile = join(work, 'big.bin')
  await writeFile(bigFile, bigData)
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

const stores: [string, () => ObjectStore][] = [
  ['memoryObjectStore', () => memoryObjectStore()],
  ['directoryObjectStore', () => directoryObjectStore(join(work, `store-${randomBytes(4).toString('hex')}`))],
]

describe.each(stores)('OSS app with %s', (_, makeStore) => {
  let oss: RunningOss
  let store: ObjectStore
  let hook: ((ctx: OssRequestContext) => Response | undefined) | undefined
  const seen: OssRequestContext[] = []

  beforeAll(async () => {
    store = makeStore()
    oss = await startOss({
      store,
      bucket: BUCKET,
      credentials: { get: (id) => credentials[id] },
      beforeRequest: (ctx) => {
        seen.push(ctx)
        return hook?.(ctx)
      },
    })
  })
  afterAll(() => oss.close())
  afterEach(() => {
    hook = undefined
    seen.length = 0
  })

  const client = (
    as = 'STS.upload',
    overrides: { [K in keyof AliOssOptions]?: AliOssOptions[K] | undefined } = {},
  ) => {
    const credential = credentials[as] as OssCredential
    const options: Record<string, unknown> = {
      accessKeyId: credential.accessKeyId,
      accessKeySecret: credential.accessKeySecret,
      stsToken: credential.securityToken,
      bucket: credential.bucket,
      endpoint: oss.endpoint,
      ...overrides,
    }
    for (const name of Object.keys(options)) if (options[name] === undefined) delete options[name]
    return aliOss(options as unknown as AliOssOptions)
  }
  const key = (name: string) => `${DIR}${name}`

  describe('objects', () => {
    it('puts a Buffer and gets it back with an MD5 ETag', async () => {
      const data = randomBytes(10_000)
      const put = await client().put(key('buffer.bin'), data)
      expect(put.res.status).toBe(200)
      expect(put.res.headers.etag).toBe(`"${md5Hex(data)}"`)
      expect(put.res.headers['x-oss-request-id']).toMatch(/^[0-9A-F]{24}$/)
      const got = await client().get(key('buffer.bin'))
      expect(got.content.equals(data)).toBe(true)
      expect(got.res.headers['content-type']).toBe('application/octet-stream')
    })

    it('puts a stream of unknown length (chunked) and one with a length', async () => {
      const chunks = [randomBytes(70_000), randomBytes(1), randomBytes(200_000)]
      await client().putStream(key('chunked.bin'), Readable.from(chunks))
      expect((await client().get(key('chunked.bin'))).content.equals(Buffer.concat(chunks))).toBe(true)
      await client().putStream(
        key('sized.txt'),
        Readable.from([Buffer.from('hello '), Buffer.from('world')]),
        {
          contentLength: 11,
        },
      )
      const got = await client().get(key('sized.txt'))
      expect(got.content.toString()).toBe('hello world')
      expect(got.res.headers['content-type']).toBe('text/plain')
    })

    it('puts a file from its path', async () => {
      await client().put(key('from-path.bin'), bigFile)
      const head = await client().head(key('from-path.bin'))
      expect(head.res.headers['content-length']).toBe(String(bigData.length))
      expect(head.res.headers.etag).toBe(`"${md5Hex(bigData)}"`)
      expect(head.res.headers['x-oss-object-type']).toBe('Normal')
      expect((await client().get(key('from-path.bin'))).content.equals(bigData)).toBe(true)
    })

    it('heads an object with its metadata, and deletes it', async () => {
      await client().put(key('meta.txt'), Buffer.from('m'), { meta: { owner: 'u-1' }, mime: 'text/markdown' })
      const head = await client().head(key('meta.txt'))
      expect(head.meta).toEqual({ owner: 'u-1' })
      expect(head.res.headers['content-type']).toBe('text/markdown')
      expect((await client().delete(key('meta.txt'))).res.status).toBe(204)
      expect(await rejection(client().get(key('meta.txt')))).toMatchObject({ status: 404, code: 'NoSuchKey' })
      // OSS answers 204 for a key that is not there.
      expect((await client().delete(key('meta.txt'))).res.status).toBe(204)
    })

    it('reports a missing key on HEAD as NoSuchKey (the XML travels in x-oss-err)', async () => {
      const recorder = recordingUrllib()
      const error = await rejection(client('STS.upload', { urllib: recorder.urllib }).head(key('missing')))
      expect(error).toMatchObject({ status: 404, code: 'NoSuchKey' })
      expect(recorder.bodies.at(-1)).toContain('<Code>NoSuchKey</Code>')
    })

    it('serves byte ranges', async () => {
      const data = randomBytes(1000)
      await client().put(key('range.bin'), data)
      const got = await client().get(key('range.bin'), { headers: { Range: 'bytes=10-19' } })
      expect(got.res.status).toBe(206)
      expect(got.res.headers['content-range']).toBe('bytes 10-19/1000')
      expect(got.content.equals(data.subarray(10, 20))).toBe(true)
      const tail = await client().get(key('range.bin'), { headers: { Range: 'bytes=-5' } })
      expect(tail.content.equals(data.subarray(995))).toBe(true)
      expect(
        await rejection(client().get(key('range.bin'), { headers: { Range: 'bytes=1000-' } })),
      ).toMatchObject({
        status: 416,
        code: 'InvalidRange',
      })
    })

    it('checks Content-MD5 and keeps the old object on a mismatch', async () => {
      await client().put(key('digest.txt'), Buffer.from('first'))
      const wrong = createHash('md5').update('something else').digest('base64')
      const error = await rejection(
        client().put(key('digest.txt'), Buffer.from('second'), { headers: { 'Content-MD5': wrong } }),
      )
      expect(error).toMatchObject({ status: 400, code: 'InvalidDigest' })
      expect((await client().get(key('digest.txt'))).content.toString()).toBe('first')
    })

    it.each([
      'a b+c.txt',
      'ünï cødé 文件.bin',
      "100% sure?#&='(x).txt",
      'nested/dir/~tilde*star!.txt',
      'trailing space /and  double  spaces ',
    ])('round-trips the key %j', async (name) => {
      const data = Buffer.from(`content of ${name}`)
      await client().put(key(name), data)
      expect((await client().get(key(name))).content.equals(data)).toBe(true)
      expect(
        (await client('STS.upload', { authorizationV4: true }).get(key(name))).content.equals(data),
      ).toBe(true)
      expect(await store.head(BUCKET, key(name))).toMatchObject({ key: key(name), size: data.length })
    })

    it('refuses a key with a .. segment: ali-oss signs it raw but its URL layer resolves the dots', async () => {
      // Real OSS receives /uploads/u-1/b.txt signed as uploads/u-1/a/../b.txt and refuses it the same way.
      expect(await rejection(client().put(key('a/../b.txt'), Buffer.from('x')))).toMatchObject({
        code: 'SignatureDoesNotMatch',
      })
      expect(await store.head(BUCKET, key('b.txt'))).toBeUndefined()
    })
  })

  describe('multipart', () => {
    const partSize = 100 * KiB
    const parts = Math.ceil((3 * 1024 * KiB + 12_345) / partSize)

    it('uploads a file in many parts and serves it byte for byte', async () => {
      const result = await client().multipartUpload(key('multi.bin'), bigFile, { partSize, parallel: 4 })
      expect(result.res.status).toBe(200)
      expect(result.etag).toMatch(new RegExp(`^"[0-9A-F]{32}-${parts}"$`))
      expect(seen.filter((c) => c.op === 'UploadPart')).toHaveLength(parts)
      const got = await client().get(key('multi.bin'))
      expect(got.content.equals(bigData)).toBe(true)
      expect(got.res.headers['x-oss-object-type']).toBe('Multipart')
      expect(got.res.headers.etag).toBe(result.etag)
      expect(await store.listMultipartUploads({ bucket: BUCKET })).toEqual([])
    })

    it('uploads with V4 signatures', async () => {
      const v4 = client('STS.upload', { authorizationV4: true })
      await v4.multipartUpload(key('multi-v4 ü.bin'), bigFile, { partSize: 1024 * KiB })
      expect((await v4.get(key('multi-v4 ü.bin'))).content.equals(bigData)).toBe(true)
    })

    it('resumes from a checkpoint after a cancel, uploading only the missing parts', async () => {
      const first = client()
      let checkpoint: AliOssCheckpoint | undefined
      const cancelled = await rejection(
        first.multipartUpload(key('resumed.bin'), bigFile, {
          partSize,
          parallel: 2,
          progress: (_, cp) => {
            if (cp) checkpoint = cp
            if (cp && cp.doneParts.length >= 6) first.cancel()
          },
        }),
      )
      expect(cancelled.name).toBe('cancel')
      expect(checkpoint?.doneParts.length).toBeGreaterThanOrEqual(6)
      const done = checkpoint?.doneParts.length ?? 0
      // Resume under another key id: a cancelled request may still reach the server late.
      credentials['STS.resume'] = {
        ...(credentials['STS.upload'] as OssCredential),
        accessKeyId: 'STS.resume',
      }
      await client('STS.resume').multipartUpload(key('resumed.bin'), bigFile, {
        partSize,
        parallel: 4,
        checkpoint: checkpoint as AliOssCheckpoint,
      })
      expect(seen.filter((c) => c.op === 'UploadPart' && c.accessKeyId === 'STS.resume')).toHaveLength(
        parts - done,
      )
      expect((await client().get(key('resumed.bin'))).content.equals(bigData)).toBe(true)
    })

    it('lists parts, pages them, and forgets an aborted upload', async () => {
      const c = client()
      const name = key('listed.bin')
      const { uploadId } = await c.initMultipartUpload(name)
      const one = await c.uploadPart(name, uploadId, 1, bigFile, 0, partSize)
      const two = await c.uploadPart(name, uploadId, 2, bigFile, partSize, partSize + 10)
      expect(one.etag).toBe(`"${md5Hex(bigData.subarray(0, partSize))}"`)
      const listed = await c.listParts(name, uploadId)
      const all = Array.isArray(listed.parts) ? listed.parts : [listed.parts]
      expect(all.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([
        ['1', one.etag, String(partSize)],
        ['2', two.etag, '10'],
      ])
      const page = await c.listParts(name, uploadId, { 'max-parts': 1 })
      expect(page.isTruncated).toBe('true')
      expect(page.nextPartNumberMarker).toBe('1')

      expect((await c.abortMultipartUpload(name, uploadId)).res.status).toBe(204)
      expect(await rejection(c.listParts(name, uploadId))).toMatchObject({
        status: 404,
        code: 'NoSuchUpload',
      })
      expect(await rejection(c.uploadPart(name, uploadId, 3, bigFile, 0, 10))).toMatchObject({
        status: 404,
        code: 'NoSuchUpload',
      })
      expect(await rejection(c.abortMultipartUpload(name, uploadId))).toMatchObject({
        status: 404,
        code: 'NoSuchUpload',
      })
      expect(await rejection(c.listParts(key('other.bin'), 'NOT-AN-UPLOAD'))).toMatchObject({
        code: 'NoSuchUpload',
      })
    })

    /** A Complete with a body the public API never sends (it sorts and de-duplicates parts). */
    const rawComplete = (name: string, uploadId: string, xml: string) => {
      const c = client()
      const params = c._objectRequestParams('POST', name, { subres: { uploadId } })
      params.mime = 'xml'
      params.content = xml
      params.successStatuses = [200]
      return c.request(params)
    }
    const partXml = (n: number, etag: string) =>
      `<Part><PartNumber>${n}</PartNumber><ETag>${etag}</ETag></Part>`

    it('validates Complete: EntityTooSmall, InvalidPart, InvalidPartOrder, MalformedXML', async () => {
      const c = client()
      const name = key('validated.bin')
      const { uploadId } = await c.initMultipartUpload(name)
      const small1 = await c.uploadPart(name, uploadId, 1, bigFile, 0, 10)
      const small2 = await c.uploadPart(name, uploadId, 2, bigFile, 10, 20)
      expect(
        await rejection(
          c.completeMultipartUpload(name, uploadId, [
            { number: 1, etag: small1.etag },
            { number: 2, etag: small2.etag },
          ]),
        ),
      ).toMatchObject({ status: 400, code: 'EntityTooSmall' })

      const big1 = await c.uploadPart(name, uploadId, 1, bigFile, 0, partSize) // replaces part 1
      expect(
        await rejection(c.completeMultipartUpload(name, uploadId, [{ number: 1, etag: small1.etag }])),
      ).toMatchObject({
        status: 400,
        code: 'InvalidPart',
      })
      expect(
        await rejection(
          c.completeMultipartUpload(name, uploadId, [
            { number: 1, etag: big1.etag },
            { number: 7, etag: small2.etag },
          ]),
        ),
      ).toMatchObject({ code: 'InvalidPart' })
      expect(
        await rejection(
          rawComplete(
            name,
            uploadId,
            `<CompleteMultipartUpload>${partXml(2, small2.etag)}${partXml(1, big1.etag)}</CompleteMultipartUpload>`,
          ),
        ),
      ).toMatchObject({ status: 400, code: 'InvalidPartOrder' })
      expect(await rejection(rawComplete(name, uploadId, '<CompleteMultipartUpload><Part>'))).toMatchObject({
        status: 400,
        code: 'MalformedXML',
      })
      expect(await rejection(rawComplete(name, uploadId, '<CompleteMultipartUpload/>'))).toMatchObject({
        code: 'MalformedXML',
      })

      // Failed Completes leave the upload intact: the valid list still completes, unquoted ETags too.
      const unquoted = (etag: string) => etag.replaceAll('"', '')
      await rawComplete(
        name,
        uploadId,
        `<CompleteMultipartUpload>${partXml(1, unquoted(big1.etag))}${partXml(2, small2.etag)}</CompleteMultipartUpload>`,
      )
      const got = await c.get(name)
      expect(got.content.equals(bigData.subarray(0, partSize + 10).fill(0, 0, 0))).toBe(false)
      expect(
        got.content.equals(Buffer.concat([bigData.subarray(0, partSize), bigData.subarray(10, 20)])),
      ).toBe(true)
      expect(await rejection(c.listParts(name, uploadId))).toMatchObject({ code: 'NoSuchUpload' })
    })
  })

  describe('authentication and access', () => {
    it('requires the STS token and checks it', async () => {
      expect(
        await rejection(client('STS.upload', { stsToken: undefined }).put(key('t'), Buffer.from('x'))),
      ).toMatchObject({
        status: 403,
        code: 'InvalidAccessKeyId',
      })
      expect(
        await rejection(client('STS.upload', { stsToken: 'CAIS-forged' }).put(key('t'), Buffer.from('x'))),
      ).toMatchObject({
        status: 403,
        code: 'InvalidSecurityToken',
      })
      expect(await rejection(client('STS.upload', { accessKeyId: 'STS.nobody' }).get('k'))).toMatchObject({
        status: 403,
        code: 'InvalidAccessKeyId',
      })
    })

    it.each([false, true])(
      'answers a wrong secret with SignatureDoesNotMatch and what was signed (V4: %s)',
      async (v4) => {
        const recorder = recordingUrllib()
        const c = client('STS.upload', {
          accessKeySecret: 'wrong',
          authorizationV4: v4,
          urllib: recorder.urllib,
        })
        expect(await rejection(c.put(key('sig.txt'), Buffer.from('x')))).toMatchObject({
          status: 403,
          code: 'SignatureDoesNotMatch',
        })
        const body = recorder.bodies.at(-1) ?? ''
        expect(body).toContain('<StringToSign>')
        if (v4) expect(body).toMatch(/<CanonicalRequest>PUT\n\/sim-bucket\/uploads\/u-1\/sig.txt\n/)
        else expect(body).toContain(`/${BUCKET}/${key('sig.txt')}</StringToSign>`)
        // HEAD carries the same verdict in x-oss-err.
        expect(await rejection(c.head(key('sig.txt')))).toMatchObject({
          status: 403,
          code: 'SignatureDoesNotMatch',
        })
      },
    )

    it('refuses expired credentials as real OSS does', async () => {
      expect(await rejection(client('STS.expired').put(key('late'), Buffer.from('x')))).toMatchObject({
        status: 403,
        code: 'SecurityTokenExpired',
      })
      expect(await rejection(client('LTAI.disabled').get('k'))).toMatchObject({
        status: 403,
        code: 'InvalidAccessKeyId',
      })
    })

    it.each([false, true])(
      'refuses a client clock 20 minutes off with RequestTimeTooSkewed (V4: %s)',
      async (v4) => {
        for (const skew of [-20 * 60_000, 20 * 60_000]) {
          const c = client('STS.upload', { amendTimeSkewed: skew, authorizationV4: v4 })
          expect(await rejection(c.put(key('skew'), Buffer.from('x')))).toMatchObject({
            status: 403,
            code: 'RequestTimeTooSkewed',
          })
        }
        await client('STS.upload', { amendTimeSkewed: 10 * 60_000, authorizationV4: v4 }).put(
          key('skew'),
          Buffer.from('x'),
        )
      },
    )

    it('allows writes only under the credential dir and bucket', async () => {
      expect(await rejection(client().put('uploads/u-2/x.txt', Buffer.from('x')))).toMatchObject({
        status: 403,
        code: 'AccessDenied',
      })
      expect(
        await rejection(client().multipartUpload('elsewhere.bin', bigFile, { partSize: 100 * KiB })),
      ).toMatchObject({
        code: 'AccessDenied',
      })
      expect(await rejection(client().delete('uploads/u-2/x.txt'))).toMatchObject({ code: 'AccessDenied' })
      // Reading is not limited to the dir, only to the bucket.
      await client('LTAI.admin').put('public/readme.txt', Buffer.from('hi'))
      expect((await client().get('public/readme.txt')).content.toString()).toBe('hi')
      const other = client('STS.upload', { bucket: 'other-bucket' })
      expect(await rejection(other.get('public/readme.txt'))).toMatchObject({
        status: 403,
        code: 'AccessDenied',
      })
      expect(
        await rejection(client('LTAI.other', { bucket: BUCKET }).get('public/readme.txt')),
      ).toMatchObject({ code: 'AccessDenied' })
    })

    it('accepts presigned URLs (V1 and V4), and refuses an expired one', async () => {
      await client().put(key('shared doc+1.txt'), Buffer.from('shared'))
      // signatureUrl refuses IP endpoints: a cname'd host, the bucket coming from the app's default.
      const viaName = client('STS.upload', { endpoint: `http://localhost:${oss.port}`, cname: true })
      const url = viaName.signatureUrl(key('shared doc+1.txt'), {
        expires: 60,
        response: { 'content-disposition': 'attachment' },
      })
      expect(url).toContain('security-token=')
      const ok = await fetch(url)
      expect(ok.status).toBe(200)
      expect(ok.headers.get('content-disposition')).toBe('attachment')
      expect(await ok.text()).toBe('shared')

      const expired = await fetch(viaName.signatureUrl(key('shared doc+1.txt'), { expires: -60 }))
      expect(expired.status).toBe(403)
      expect(await expired.text()).toContain('<Code>AccessDenied</Code>')
      const tampered = await fetch(url.replace('shared%20doc', 'shared%20dox'))
      expect(tampered.status).toBe(403)
      expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>')

      // A presigned PUT signs its Content-Type, which the uploader must then send.
      const putUrl = viaName.signatureUrl(key('presigned put.txt'), {
        method: 'PUT',
        expires: 60,
        'Content-Type': 'text/plain',
      })
      const put = await fetch(putUrl, {
        method: 'PUT',
        body: 'uploaded',
        headers: { 'content-type': 'text/plain' },
      })
      expect(put.status).toBe(200)
      expect(put.headers.get('etag')).toMatch(/^"[0-9A-F]{32}"$/)
      expect((await client().get(key('presigned put.txt'))).content.toString()).toBe('uploaded')
      const wrongType = await fetch(putUrl, {
        method: 'PUT',
        body: 'x',
        headers: { 'content-type': 'image/png' },
      })
      expect(wrongType.status).toBe(403)

      const v4 = client('STS.upload', {
        endpoint: `http://localhost:${oss.port}`,
        cname: true,
        authorizationV4: true,
      })
      const v4Url = await v4.signatureUrlV4('GET', 60, undefined, key('shared doc+1.txt'))
      const v4Ok = await fetch(v4Url)
      expect(v4Ok.status).toBe(200)
      expect(await v4Ok.text()).toBe('shared')
    })

    it('refuses anonymous requests', async () => {
      const response = await fetch(`${oss.endpoint}/${key('buffer.bin')}`, {
        headers: { host: `${BUCKET}.oss-cn-hangzhou.aliyuncs.com` },
      })
      expect(response.status).toBe(403)
      expect(response.headers.get('content-type')).toBe('application/xml')
      expect(await response.text()).toMatch(
        /<Code>AccessDenied<\/Code>.*<RequestId>[0-9A-F]{24}<\/RequestId>/s,
      )
    })
  })

  describe('CORS', () => {
    it('answers preflights unsigned, echoing origin and headers', async () => {
      const response = await fetch(`${oss.endpoint}/${key('browser.bin')}?partNumber=1&uploadId=X`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://app.test:5173',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization,content-type,x-oss-date,x-oss-security-token',
        },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, PUT, POST, DELETE, HEAD')
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'authorization,content-type,x-oss-date,x-oss-security-token',
      )
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'ETag, x-oss-request-id, x-oss-hash-crc64ecma',
      )
      expect(response.headers.get('x-oss-request-id')).toMatch(/^[0-9A-F]{24}$/)
    })

    it('exposes ETag on ordinary answers, errors included', async () => {
      const response = await fetch(`${oss.endpoint}/x`, { headers: { origin: 'http://app.test' } })
      expect(response.status).toBe(403)
      expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test')
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'ETag, x-oss-request-id, x-oss-hash-crc64ecma',
      )
    })
  })

  describe('fault hook', () => {
    it('sees the identified operation and can answer instead of it', async () => {
      hook = (ctx) =>
        ctx.op === 'UploadPart' && ctx.partNumber === 2
          ? ossError(503, 'InternalError', 'Injected by a test')
          : undefined
      const error = await rejection(
        client().multipartUpload(key('faulty.bin'), bigFile, { partSize: 1024 * KiB, parallel: 1 }),
      )
      expect(error).toMatchObject({ status: 503, code: 'InternalError' })
      const part = seen.find((c) => c.op === 'UploadPart')
      expect(part).toMatchObject({
        method: 'PUT',
        bucket: BUCKET,
        key: key('faulty.bin'),
        accessKeyId: 'STS.upload',
        partNumber: 1,
      })
      expect(part?.uploadId).toMatch(/^[0-9A-F]{32}$/)

      hook = (ctx) =>
        ctx.op === 'HeadObject' ? ossError(403, 'SecurityTokenExpired', 'Injected', true) : undefined
      expect(await rejection(client().head(key('buffer.bin')))).toMatchObject({
        status: 403,
        code: 'SecurityTokenExpired',
      })
    })

    it('runs before authentication, so expiring the credential fails that very request', async () => {
      const credential = { ...(credentials['STS.upload'] as OssCredential) }
      credentials['STS.flaky'] = { ...credential, accessKeyId: 'STS.flaky' }
      hook = (ctx) => {
        if (ctx.op === 'UploadPart' && ctx.partNumber === 3)
          (credentials['STS.flaky'] as OssCredential).expiresAt = Date.now() - 1
        return undefined
      }
      const c = client('STS.flaky')
      const error = await rejection(
        c.multipartUpload(key('expiring.bin'), bigFile, { partSize: 1024 * KiB, parallel: 1 }),
      )
      expect(error).toMatchObject({ status: 403, code: 'SecurityTokenExpired' })
    })
  })
})

describe('directoryObjectStore across restarts', () => {
  it('keeps objects and uploads in progress when re-created over the same directory', async () => {
    const dir = join(work, 'persistent')
    const credential = credentials['LTAI.admin'] as OssCredential
    const run = async (body: (c: ReturnType<typeof aliOss>) => Promise<void>) => {
      const oss = await startOss({ store: directoryObjectStore(dir), credentials: { get: () => credential } })
      try {
        await body(
          aliOss({
            accessKeyId: credential.accessKeyId,
            accessKeySecret: credential.accessKeySecret,
            bucket: BUCKET,
            endpoint: oss.endpoint,
          }),
        )
      } finally {
        await oss.close()
      }
    }
    let uploadId = ''
    let first = ''
    await run(async (c) => {
      await c.put('kept.txt', Buffer.from('still here'))
      uploadId = (await c.initMultipartUpload('big.bin')).uploadId
      first = (await c.uploadPart('big.bin', uploadId, 1, bigFile, 0, 200 * KiB)).etag
    })
    await run(async (c) => {
      expect((await c.get('kept.txt')).content.toString()).toBe('still here')
      const listed = await c.listParts('big.bin', uploadId)
      expect(listed.parts).toMatchObject({ PartNumber: '1', ETag: first })
      const second = await c.uploadPart('big.bin', uploadId, 2, bigFile, 200 * KiB, bigData.length)
      await c.completeMultipartUpload('big.bin', uploadId, [
        { number: 1, etag: first },
        { number: 2, etag: second.etag },
      ])
    })
    await run(async (c) => {
      expect((await c.get('big.bin')).content.equals(bigData)).toBe(true)
    })
    expect((await directoryObjectStore(dir).list()).map((o) => o.key)).toEqual(['big.bin', 'kept.txt'])
  })
})
