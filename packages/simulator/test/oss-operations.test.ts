import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningSimulator, startSimulator } from '../src/index.ts'
import { type AliOssError, type AliOssResponse, aliOss, rejection } from './support/ali-oss.ts'

// The object operations beyond put/get/multipart, and OSS behaviour inside the claimed ones,
// through the real ali-oss client against the whole simulator with sts-tmp credentials.

type Res = { res: AliOssResponse; status?: number }
interface ListedObject {
  name: string
  size: number
  etag: string
  type: string
  storageClass: string
}
/** The parts of ali-oss's surface these tests use beyond the shared typing. */
interface Client {
  put(name: string, file: Buffer | Readable, options?: Record<string, unknown>): Promise<Res>
  putStream(name: string, stream: Readable, options?: Record<string, unknown>): Promise<Res>
  get(name: string, options?: Record<string, unknown>): Promise<Res & { content: Buffer }>
  head(
    name: string,
    options?: Record<string, unknown>,
  ): Promise<Res & { meta: Record<string, string> | null }>
  list(
    query: Record<string, unknown> | null,
    options?: Record<string, unknown>,
  ): Promise<
    Res & { objects?: ListedObject[]; prefixes?: string[]; nextMarker?: string; isTruncated: boolean }
  >
  listV2(
    query: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): Promise<
    Res & {
      objects: ListedObject[]
      prefixes: string[]
      nextContinuationToken?: string
      isTruncated: boolean
      keyCount: number
    }
  >
  deleteMulti(
    names: string[],
    options?: Record<string, unknown>,
  ): Promise<Res & { deleted: { Key: string }[] }>
  copy(
    name: string,
    source: string,
    options?: Record<string, unknown>,
  ): Promise<Res & { data: { etag: string } }>
  append(
    name: string,
    file: Buffer,
    options?: Record<string, unknown>,
  ): Promise<Res & { nextAppendPosition: string }>
  putObjectTagging(name: string, tags: Record<string, string>): Promise<Res>
  getObjectTagging(name: string): Promise<Res & { tag: Record<string, string> }>
  deleteObjectTagging(name: string): Promise<Res>
  putACL(name: string, acl: string): Promise<Res>
  getACL(name: string): Promise<Res & { acl: string }>
  initMultipartUpload(name: string, options?: Record<string, unknown>): Promise<Res & { uploadId: string }>
  uploadPartCopy(
    name: string,
    uploadId: string,
    partNo: number,
    range: string,
    source: { sourceKey: string; sourceBucketName: string },
  ): Promise<Res & { name: string; etag: string }>
  completeMultipartUpload(
    name: string,
    uploadId: string,
    parts: { number: number; etag: string }[],
  ): Promise<Res & { etag: string }>
  calculatePostSignature(policy: object): { OSSAccessKeyId: string; Signature: string; policy: string }
  signPostObjectPolicyV4(policy: object, date: Date): string
  signatureUrl(name: string, options?: Record<string, unknown>): string
  putSymlink(name: string, target: string, options?: Record<string, unknown>): Promise<Res>
  getSymlink(name: string): Promise<Res & { targetName: string }>
  restore(name: string): Promise<Res>
  options: { headerEncoding: string }
}

interface Sts {
  accessKeyId: string
  accessKeySecret: string
  securityToken: string
  bucket: string
  dir: string
  endPoint: string
}

let sim: RunningSimulator
let sts: Sts

async function issue(): Promise<Sts> {
  const { type, value } = sim.credentials.openToken
  const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/sts-tmp`, {
    method: 'POST',
    headers: { authorization: `${type} ${value}`, 'content-type': 'application/json' },
  })
  return ((await response.json()) as { result: Sts }).result
}

const client = (options: Record<string, unknown> = {}): Client =>
  aliOss({
    endpoint: sts.endPoint,
    accessKeyId: sts.accessKeyId,
    accessKeySecret: sts.accessKeySecret,
    stsToken: sts.securityToken,
    bucket: sts.bucket,
    ...options,
  }) as unknown as Client

const key = (name: string) => `${sts.dir}${name}`

beforeAll(async () => {
  sim = await startSimulator()
  sts = await issue()
})
afterAll(() => sim.stop())

describe.each([
  ['V1', false],
  ['V4', true],
])('conditional GET and HEAD (%s)', (_, authorizationV4) => {
  const oss = () => client({ authorizationV4 })
  let lastModified: string
  let etag: string
  beforeAll(async () => {
    const put = await oss().put(key(`cond-${authorizationV4}.txt`), Buffer.from('conditional'))
    etag = put.res.headers.etag as string
    lastModified = (await oss().head(key(`cond-${authorizationV4}.txt`))).res.headers[
      'last-modified'
    ] as string
  })
  const name = () => key(`cond-${authorizationV4}.txt`)

  it.each([
    ['If-None-Match equal to the ETag', () => ({ 'If-None-Match': etag })],
    ['If-Modified-Since at Last-Modified', () => ({ 'If-Modified-Since': lastModified })],
  ])('answers 304 to %s', async (_, headers) => {
    expect((await oss().get(name(), { headers: headers() })).res.status).toBe(304)
    expect((await oss().head(name(), { headers: headers() })).res.status).toBe(304)
  })

  it.each([
    ['If-Match "foo"', () => ({ 'If-Match': '"foo"' })],
    [
      'If-Unmodified-Since in the past',
      () => ({ 'If-Unmodified-Since': new Date(Date.now() - 86_400_000).toUTCString() }),
    ],
  ])('answers 412 PreconditionFailed to %s', async (_, headers) => {
    const got = await rejection(oss().get(name(), { headers: headers() }))
    expect([got.status, got.code]).toEqual([412, 'PreconditionFailed'])
    expect(got.requestId).toMatch(/^[0-9A-F]{24}$/)
    const head = await rejection(oss().head(name(), { headers: headers() }))
    expect(head.status).toBe(412)
  })

  it('answers 200 when the conditions hold', async () => {
    const got = await oss().get(name(), {
      headers: {
        'If-Match': etag,
        'If-None-Match': '"other"',
        'If-Modified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT',
      },
    })
    expect(got.res.status).toBe(200)
    expect(got.content.toString()).toBe('conditional')
  })
})

describe('standard headers', () => {
  const headers = {
    'Content-Disposition': 'attachment; filename="report.pdf"',
    Expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
    'Cache-Control': 'max-age=600',
    'Content-Encoding': 'gzip',
    'x-oss-server-side-encryption': 'AES256',
    'x-oss-storage-class': 'IA',
  }
  const expectKept = (got: Record<string, string | undefined>) => {
    expect(got['content-disposition']).toBe(headers['Content-Disposition'])
    expect(got.expires).toBe(headers.Expires)
    expect(got['cache-control']).toBe(headers['Cache-Control'])
    expect(got['content-encoding']).toBe('gzip')
    expect(got['x-oss-server-side-encryption']).toBe('AES256')
    expect(got['x-oss-storage-class']).toBe('IA')
  }

  it('are stored from PutObject and answered on HEAD and GET', async () => {
    await client().put(key('headers/put.bin'), gzipSync('gzipped'), { headers })
    expectKept((await client().head(key('headers/put.bin'))).res.headers)
    const got = await client().get(key('headers/put.bin'))
    expectKept(got.res.headers)
    expect(got.content.toString()).toBe('gzipped')
  })

  it('are stored from InitiateMultipartUpload', async () => {
    const oss = client()
    const { uploadId } = await oss.initMultipartUpload(key('headers/multi.bin'), { headers })
    const params = (
      oss as unknown as { _objectRequestParams: (m: string, n: string, o: unknown) => object }
    )._objectRequestParams('PUT', key('headers/multi.bin'), { subres: { partNumber: 1, uploadId } })
    const part = await (oss as unknown as { request: (p: object) => Promise<Res> }).request({
      ...params,
      content: Buffer.from('part'),
      successStatuses: [200],
    })
    await oss.completeMultipartUpload(key('headers/multi.bin'), uploadId, [
      { number: 1, etag: part.res.headers.etag as string },
    ])
    expectKept((await oss.head(key('headers/multi.bin'))).res.headers)
  })

  it('refuses an unknown storage class', async () => {
    const error = await rejection(
      client().put(key('headers/bad.bin'), Buffer.from('x'), { headers: { 'x-oss-storage-class': 'Cold' } }),
    )
    expect([error.status, error.code]).toEqual([400, 'InvalidArgument'])
  })
})

describe.each([
  ['V1', false],
  ['V4', true],
])('non-ASCII user metadata with headerEncoding latin1 (%s)', (_, authorizationV4) => {
  it('is signed over the bytes sent and answered back as sent', async () => {
    const oss = client({ authorizationV4 })
    oss.options.headerEncoding = 'latin1'
    const name = key(`meta-latin1-${authorizationV4}.txt`)
    const put = await oss.put(name, Buffer.from('x'), { meta: { a: '阿达的大多' } })
    expect(put.res.status).toBe(200)
    const head = await oss.head(name)
    expect(head.meta?.a).toBe(Buffer.from('阿达的大多').toString('latin1'))
  })
})

describe('streams and signed URLs', () => {
  it('accepts a stream PUT with both Content-Length and Transfer-Encoding: chunked', async () => {
    const data = randomBytes(200_000)
    const oss = client()
    const put = await oss.putStream(
      key('stream.bin'),
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      {
        contentLength: data.length,
        headers: { 'Transfer-Encoding': 'chunked' },
      },
    )
    expect(put.res.status).toBe(200)
    expect((await oss.get(key('stream.bin'))).content.equals(data)).toBe(true)
  })

  it('accepts x-oss-traffic-limit in a signed URL', async () => {
    await client().put(key('limited.txt'), Buffer.from('limited'))
    const named = client({ endpoint: sts.endPoint.replace('127.0.0.1', 'localhost'), cname: true })
    const url = named.signatureUrl(key('limited.txt'), { expires: 60, trafficLimit: 8 * 1024 * 100 })
    expect(url).toContain('x-oss-traffic-limit=')
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('limited')
  })
})

describe('ListObjects and ListObjectsV2', () => {
  const names = ['list/a.txt', 'list/b.txt', 'list/sub/c.txt', 'list/sub/d.txt', 'list/z.txt']
  beforeAll(async () => {
    for (const name of names) await client().put(key(name), Buffer.from(name))
  })

  it('lists under a prefix, with a delimiter, in pages (V1)', async () => {
    const all = await client().list({ prefix: key('list/'), delimiter: '/' })
    expect(all.objects?.map((o) => o.name)).toEqual([key('list/a.txt'), key('list/b.txt'), key('list/z.txt')])
    expect(all.prefixes).toEqual([key('list/sub/')])
    expect(all.objects?.[0]).toMatchObject({ size: 10, type: 'Normal', storageClass: 'Standard' })

    const first = await client().list({ prefix: key('list/'), 'max-keys': 2 })
    expect(first.objects?.map((o) => o.name)).toEqual([key('list/a.txt'), key('list/b.txt')])
    expect(first.isTruncated).toBe(true)
    const second = await client().list({ prefix: key('list/'), 'max-keys': 10, marker: first.nextMarker })
    expect(second.objects?.map((o) => o.name)).toEqual([
      key('list/sub/c.txt'),
      key('list/sub/d.txt'),
      key('list/z.txt'),
    ])
    expect(second.isTruncated).toBe(false)
  })

  it('pages with continuation tokens and counts keys (V2)', async () => {
    const first = await client().listV2({ prefix: key('list/'), delimiter: '/', 'max-keys': 2 })
    expect(first.objects.map((o) => o.name)).toEqual([key('list/a.txt'), key('list/b.txt')])
    expect(first.keyCount).toBe(2)
    expect(first.isTruncated).toBe(true)
    const second = await client().listV2({
      prefix: key('list/'),
      delimiter: '/',
      'max-keys': 2,
      'continuation-token': first.nextContinuationToken,
    })
    expect(second.prefixes).toEqual([key('list/sub/')])
    expect(second.objects.map((o) => o.name)).toEqual([key('list/z.txt')])
    expect(second.isTruncated).toBe(false)
  })

  it('refuses a prefix outside the credential dir', async () => {
    const error = await rejection(client().list({ prefix: 'someone-else/' }))
    expect([error.status, error.code]).toEqual([403, 'AccessDenied'])
  })
})

describe('DeleteMultipleObjects', () => {
  it('deletes the keys given, missing ones included, quietly or not', async () => {
    for (const name of ['del/a', 'del/b']) await client().put(key(name), Buffer.from(name))
    const loud = await client().deleteMulti([key('del/a'), key('del/missing')])
    expect(loud.deleted.map((d) => d.Key)).toEqual([key('del/a'), key('del/missing')])
    const quiet = await client().deleteMulti([key('del/b')], { quiet: true })
    expect(quiet.res.status).toBe(200)
    const left = await client().list({ prefix: key('del/') })
    expect(left.objects ?? []).toEqual([])
  })

  it('refuses the whole batch when a key lies outside the credential dir', async () => {
    await client().put(key('del/kept'), Buffer.from('kept'))
    const error = await rejection(client().deleteMulti([key('del/kept'), 'elsewhere/x']))
    expect([error.status, error.code]).toEqual([403, 'AccessDenied'])
    expect((await client().head(key('del/kept'))).res.status).toBe(200)
  })
})

describe('CopyObject and UploadPartCopy', () => {
  it('copies bytes and metadata, or replaces the metadata', async () => {
    const data = randomBytes(5000)
    await client().put(key('copy/src.bin'), data, { meta: { origin: 'src' }, mime: 'image/png' })
    await client().copy(key('copy/same.bin'), key('copy/src.bin'))
    const same = await client().get(key('copy/same.bin'))
    expect(same.content.equals(data)).toBe(true)
    expect(same.res.headers['x-oss-meta-origin']).toBe('src')
    expect(same.res.headers['content-type']).toBe('image/png')

    await client().copy(key('copy/replaced.bin'), key('copy/src.bin'), { meta: { origin: 'new' } })
    const replaced = await client().head(key('copy/replaced.bin'))
    expect(replaced.meta).toEqual({ origin: 'new' })
  })

  it('answers NoSuchKey for a missing source and 412 for a failed copy-source condition', async () => {
    expect((await rejection(client().copy(key('copy/x'), key('copy/missing')))).code).toBe('NoSuchKey')
    const error = await rejection(
      client().copy(key('copy/x'), key('copy/src.bin'), { headers: { 'If-Match': '"nope"' } }),
    )
    expect([error.status, error.code]).toEqual([412, 'PreconditionFailed'])
  })

  it('builds a multipart object from ranges of another', async () => {
    const data = randomBytes(300 * 1024)
    await client().put(key('copy/big.bin'), data)
    const { uploadId } = await client().initMultipartUpload(key('copy/assembled.bin'))
    const source = { sourceKey: key('copy/big.bin'), sourceBucketName: sts.bucket }
    const one = await client().uploadPartCopy(key('copy/assembled.bin'), uploadId, 1, '0-204799', source)
    const two = await client().uploadPartCopy(
      key('copy/assembled.bin'),
      uploadId,
      2,
      `204800-${data.length - 1}`,
      source,
    )
    await client().completeMultipartUpload(key('copy/assembled.bin'), uploadId, [
      { number: 1, etag: one.etag },
      { number: 2, etag: two.etag },
    ])
    expect((await client().get(key('copy/assembled.bin'))).content.equals(data)).toBe(true)
  })
})

describe('AppendObject', () => {
  it('creates an Appendable object and extends it at its length', async () => {
    const first = await client().append(key('append.log'), Buffer.from('one,'))
    expect(first.nextAppendPosition).toBe('4')
    const second = await client().append(key('append.log'), Buffer.from('two'), {
      position: first.nextAppendPosition,
    })
    expect(second.nextAppendPosition).toBe('7')
    const got = await client().get(key('append.log'))
    expect(got.content.toString()).toBe('one,two')
    expect(got.res.headers['x-oss-object-type']).toBe('Appendable')
  })

  it('refuses a wrong position and a Normal object with 409', async () => {
    const wrong = await rejection(client().append(key('append.log'), Buffer.from('x'), { position: '1' }))
    expect([wrong.status, wrong.code]).toEqual([409, 'PositionNotEqualToLength'])
    await client().put(key('normal.txt'), Buffer.from('n'))
    const normal = await rejection(client().append(key('normal.txt'), Buffer.from('x'), { position: '1' }))
    expect([normal.status, normal.code]).toEqual([409, 'ObjectNotAppendable'])
  })
})

describe('object tagging and ACL', () => {
  it('puts, gets and deletes tags; PUT may set them with x-oss-tagging', async () => {
    await client().put(key('tags.txt'), Buffer.from('t'), {
      headers: { 'x-oss-tagging': 'team=core&tier=1' },
    })
    expect((await client().getObjectTagging(key('tags.txt'))).tag).toEqual({ team: 'core', tier: '1' })
    expect((await client().head(key('tags.txt'))).res.headers['x-oss-tagging-count']).toBe('2')
    await client().putObjectTagging(key('tags.txt'), { only: 'this' })
    expect((await client().getObjectTagging(key('tags.txt'))).tag).toEqual({ only: 'this' })
    await client().deleteObjectTagging(key('tags.txt'))
    expect((await client().getObjectTagging(key('tags.txt'))).tag).toEqual({})
  })

  it('refuses more than 10 tags with InvalidTag', async () => {
    // ali-oss refuses 11 tags itself in putObjectTagging; the x-oss-tagging header reaches the store.
    const tagging = Array.from({ length: 11 }, (_, i) => `k${i}=v`).join('&')
    const error = await rejection(
      client().put(key('tags-11.txt'), Buffer.from('t'), { headers: { 'x-oss-tagging': tagging } }),
    )
    expect([error.status, error.code]).toEqual([400, 'InvalidTag'])
  })

  it('puts and gets the ACL, default until set', async () => {
    await client().put(key('acl.txt'), Buffer.from('a'))
    expect((await client().getACL(key('acl.txt'))).acl).toBe('default')
    await client().putACL(key('acl.txt'), 'public-read')
    expect((await client().getACL(key('acl.txt'))).acl).toBe('public-read')
    const error = await rejection(client().putACL(key('acl.txt'), 'everyone'))
    expect([error.status, error.code]).toEqual([400, 'InvalidArgument'])
  })
})

describe('PostObject', () => {
  const policy = () => ({
    expiration: new Date(Date.now() + 600_000).toISOString(),
    conditions: [
      ['starts-with', '$key', sts.dir],
      ['content-length-range', 1, 1024],
    ],
  })
  const send = (fields: Record<string, string>, file: string) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.append(name, value)
    form.append('file', new Blob([file]), 'upload.txt')
    return fetch(`${sts.endPoint}/`, {
      method: 'POST',
      body: form,
      headers: { host: `${sts.bucket}.oss-cn-hangzhou.aliyuncs.com` },
    })
  }

  it('stores a form upload signed with V1, and answers 201 with XML when asked', async () => {
    const signed = client().calculatePostSignature(policy())
    const response = await send(
      {
        // OSS replaces the literal `${filename}` with the uploaded file's name.
        key: key('form/$' + '{filename}'),
        ...signed,
        'x-oss-security-token': sts.securityToken,
        success_action_status: '201',
        'x-oss-meta-from': 'form',
      },
      'posted by a browser',
    )
    expect(response.status).toBe(201)
    expect(await response.text()).toContain(`<Key>${key('form/upload.txt')}</Key>`)
    const got = await client().get(key('form/upload.txt'))
    expect(got.content.toString()).toBe('posted by a browser')
    expect(got.res.headers['x-oss-meta-from']).toBe('form')
  })

  it('stores a form upload signed with V4', async () => {
    const now = new Date()
    const date = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '')
    const v4Policy = {
      ...policy(),
      conditions: [...policy().conditions, { 'x-oss-signature-version': 'OSS4-HMAC-SHA256' }],
    }
    const encoded = Buffer.from(JSON.stringify(v4Policy)).toString('base64')
    const signature = client({ region: 'oss-cn-hangzhou' }).signPostObjectPolicyV4(v4Policy, now)
    const response = await send(
      {
        key: key('form/v4.txt'),
        policy: encoded,
        'x-oss-signature-version': 'OSS4-HMAC-SHA256',
        'x-oss-credential': `${sts.accessKeyId}/${date.slice(0, 8)}/cn-hangzhou/oss/aliyun_v4_request`,
        'x-oss-date': date,
        'x-oss-signature': signature,
        'x-oss-security-token': sts.securityToken,
      },
      'v4 form',
    )
    expect(response.status).toBe(204)
    expect((await client().get(key('form/v4.txt'))).content.toString()).toBe('v4 form')
  })

  it('refuses a form whose policy conditions fail, or whose signature is wrong', async () => {
    const signed = client().calculatePostSignature(policy())
    const outside = await send(
      { key: 'elsewhere/x.txt', ...signed, 'x-oss-security-token': sts.securityToken },
      'x',
    )
    expect(outside.status).toBe(403)
    expect(await outside.text()).toContain('<Code>AccessDenied</Code>')
    const forged = await send(
      { key: key('form/f.txt'), ...signed, Signature: 'AAAA', 'x-oss-security-token': sts.securityToken },
      'x',
    )
    expect(forged.status).toBe(403)
  })
})

describe('symlinks', () => {
  it('points at a target: GET serves its bytes under the link metadata; a link to a link is InvalidTargetType', async () => {
    await client().put(key('sym/target.txt'), Buffer.from('target bytes'))
    await client().putSymlink(key('sym/link'), key('sym/target.txt'), { meta: { role: 'link' } })
    expect((await client().getSymlink(key('sym/link'))).targetName).toBe(key('sym/target.txt'))
    const got = await client().get(key('sym/link'))
    expect(got.content.toString()).toBe('target bytes')
    expect(got.res.headers['x-oss-object-type']).toBe('Symlink')
    expect(got.res.headers['x-oss-meta-role']).toBe('link')
    await client().putSymlink(key('sym/link2'), key('sym/link'))
    const error = await rejection(client().head(key('sym/link2')))
    expect([error.status, error.code]).toEqual([400, 'InvalidTargetType'])
  })
})

describe('what the simulator does not implement', () => {
  it('answers an OSS XML NotImplemented with a request id, never a reset', async () => {
    await client().put(key('archive.txt'), Buffer.from('a'))
    const error: AliOssError = await rejection(client().restore(key('archive.txt')))
    expect([error.status, error.code]).toEqual([501, 'NotImplemented'])
    expect(error.requestId).toMatch(/^[0-9A-F]{24}$/)
  })
})
