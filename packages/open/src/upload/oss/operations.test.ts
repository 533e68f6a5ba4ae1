import { createRequire } from 'node:module'
import type { UploadCredential } from '@service-sdk/core'
import { rejectionOf } from '@service-sdk/testkit'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type Answer, bothWays, scriptedHttp } from '../../../test/upload/oracle.ts'
import { nodeSigning } from '../node/signing.ts'
import { credentialAccess } from './access.ts'
import { checkedOptions, endpointUrl, type OssClient, ossConnection } from './connection.ts'
import { listPartsOf, listUploadsOf } from './operations.ts'
import type { OssBody, OssHttpRequest } from './types.ts'
import { readXml } from './xml.ts'

const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: object,
) => { options: Record<string, unknown> }

const credentialOf =
  (endPoint: string, overrides: Partial<UploadCredential> = {}) =>
  (): UploadCredential => ({
    endPoint,
    bucket: 'media-bucket',
    dir: 'upload/1/',
    accessKeyId: ' STS.id',
    accessKeySecret: 'se/cret+',
    securityToken: 'CAIS+token/with=chars ',
    ...overrides,
  })

const xml = (root: string, inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${inner}</${root}>`
const part = (n: number, etag = `"ETAG${n}"`, size = 1024) =>
  `<Part><PartNumber>${n}</PartNumber><LastModified>2026-11-04T09:05:07.000Z</LastModified><ETag>${etag}</ETag><Size>${size}</Size></Part>`

/** What OSS answers each operation with when it succeeds (`listParts` and `listUploads` given). */
function okAnswers(pages: { listParts?: string; listUploads?: string } = {}) {
  return (url: string, request: OssHttpRequest): Answer => {
    const query = new URL(url).searchParams
    const headers = { 'x-oss-request-id': 'REQ', 'x-oss-hash-crc64ecma': '123', etag: '"PARTETAG"' }
    if (request.method === 'DELETE') return { status: 204, headers }
    if (request.method === 'HEAD') return { status: 200, headers: { ...headers, 'content-length': '4096' } }
    if (request.method === 'PUT') return { status: 200, headers }
    if (request.method === 'POST' && query.has('uploads'))
      return {
        status: 200,
        headers,
        body: xml(
          'InitiateMultipartUploadResult',
          '<Bucket>media-bucket</Bucket><Key>k</Key><UploadId>0004B9895DBBB6EC98E</UploadId>',
        ),
      }
    if (request.method === 'POST')
      return { status: 200, headers, body: xml('CompleteMultipartUploadResult', '<ETag>"X-2"</ETag>') }
    if (query.has('uploads'))
      return {
        status: 200,
        headers,
        body: pages.listUploads ?? xml('ListMultipartUploadsResult', '<IsTruncated>false</IsTruncated>'),
      }
    return {
      status: 200,
      headers,
      body: pages.listParts ?? xml('ListPartsResult', '<IsTruncated>false</IsTruncated>'),
    }
  }
}

/** The list operations' first page, then `rest` once the query carries `marker`. */
const paged =
  (marker: string, first: Parameters<typeof okAnswers>[0], rest: Parameters<typeof okAnswers>[0]) =>
  (url: string, request: OssHttpRequest): Answer =>
    okAnswers(new URL(url).searchParams.has(marker) ? rest : first)(url, request)

const body = (size: number): OssBody => ({ size, stream: {}, checksum: () => 0n })
const parts = [
  { number: 2, etag: '"B2"', size: 5 },
  { number: 1, etag: '"A1"', size: 5 },
  { number: 2, etag: '"B2"', size: 5 },
]

const keys = [
  'upload/1/photo.jpg',
  'upload/1/Photo Name (1).PNG',
  'upload/1/файл+plus&amp;.pdf',
  '/upload/1/no-ext',
  'upload/1/中文/目录.mp4',
  'upload/1/hash#q?.bin',
]
const uploadId = 'U+1/=&?x'

afterEach(() => {
  vi.useRealTimers()
})

describe("Node's requests are ali-oss's own (URL, method, headers, body)", () => {
  for (const endpoint of [
    'https://oss-cn-hangzhou.aliyuncs.com',
    'http://127.0.0.1:9000',
    'oss-cn-beijing.aliyuncs.com',
  ]) {
    const operations: Record<string, (c: OssClient, key: string) => Promise<unknown>> = {
      PutObject: (c, key) => c.put(key, body(65_536)),
      InitiateMultipartUpload: (c, key) => c.initiate(key),
      UploadPart: (c, key) => c.uploadPart(key, uploadId, 7, body(8 * 1024 * 1024)),
      CompleteMultipartUpload: (c, key) => c.complete(key, uploadId, parts),
      ListParts: (c, key) => c.listParts(key, uploadId),
      AbortMultipartUpload: (c, key) => c.abort(key, uploadId),
      DeleteObject: (c, key) => c.remove(key),
      HeadObject: (c, key) => c.size(key),
      ListMultipartUploads: (c, key) => c.listUploads(key),
    }
    for (const [name, operation] of Object.entries(operations)) {
      test(`${name}, ${endpoint}`, async () => {
        vi.useFakeTimers({ now: Date.UTC(2026, 10, 4, 9, 5, 7), toFake: ['Date'] })
        for (const key of keys) {
          const { aliOss, signed } = await bothWays(credentialOf(endpoint), okAnswers(), (c) =>
            operation(c, key),
          )
          expect(aliOss.sent.length, key).toBeGreaterThan(0)
          expect(signed, key).toEqual(aliOss)
        }
      })
    }
  }

  test('without a security token, and ListParts and ListMultipartUploads past their first page', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 31, 23, 59, 59), toFake: ['Date'] })
    const credential = credentialOf('https://oss-cn-shanghai.aliyuncs.com', { securityToken: '' })
    const pagedParts = paged(
      'part-number-marker',
      {
        listParts: xml(
          'ListPartsResult',
          `<NextPartNumberMarker>2</NextPartNumberMarker><IsTruncated>true</IsTruncated>${part(2)}${part(1)}`,
        ),
      },
      {
        listParts: xml(
          'ListPartsResult',
          `<NextPartNumberMarker>3</NextPartNumberMarker><IsTruncated>false</IsTruncated>${part(3, '"E3"', 7)}`,
        ),
      },
    )
    const listed = await bothWays(credential, pagedParts, (c) => c.listParts('dir/a.json', 'U1'))
    expect(listed.signed).toEqual(listed.aliOss)
    expect(listed.signed.sent).toHaveLength(2)
    expect(listed.signed.result).toEqual({
      value: [
        { number: 1, etag: '"ETAG1"', size: 1024 },
        { number: 2, etag: '"ETAG2"', size: 1024 },
        { number: 3, etag: '"E3"', size: 7 },
      ],
    })

    const upload = (key: string, id: string) =>
      `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>2026-01-02T03:04:05.000Z</Initiated></Upload>`
    const pagedUploads = paged(
      'key-marker',
      {
        listUploads: xml(
          'ListMultipartUploadsResult',
          `<Prefix>dir/</Prefix><NextKeyMarker>dir/a &amp; b</NextKeyMarker><NextUploadIdMarker>U2</NextUploadIdMarker><IsTruncated>true</IsTruncated>${upload('dir/a', 'U1')}${upload('dir/a &amp; b', 'U2')}<CommonPrefixes><Prefix>dir/x/</Prefix></CommonPrefixes>`,
        ),
      },
      {
        listUploads: xml(
          'ListMultipartUploadsResult',
          `<IsTruncated>false</IsTruncated>${upload('dir/c', 'U3')}`,
        ),
      },
    )
    const uploads = await bothWays(credential, pagedUploads, (c) => c.listUploads('dir/'))
    expect(uploads.signed).toEqual(uploads.aliOss)
    expect(uploads.signed.sent).toHaveLength(2)
    const initiated = Date.UTC(2026, 0, 2, 3, 4, 5)
    expect(uploads.signed.result).toEqual({
      value: [
        { key: 'dir/a', uploadId: 'U1', initiated },
        { key: 'dir/a & b', uploadId: 'U2', initiated },
        { key: 'dir/c', uploadId: 'U3', initiated },
      ],
    })
  })
})

describe('failed answers read as ali-oss reads them (status, OSS code, message, request id)', () => {
  const errorXml = (code: string, extra = '') =>
    xml(
      'Error',
      `\n  <Code>${code}</Code>\n  <Message>The &quot;thing&quot; failed &amp; more.</Message>\n  <RequestId>RID-1</RequestId>\n  <HostId>h</HostId>${extra}\n`,
    )
  const answers: Record<string, Answer> = {
    'an error document': { status: 403, body: errorXml('InvalidAccessKeyId') },
    'a 5xx document': { status: 503, body: errorXml('ServiceUnavailable') },
    'a condition': { status: 412, body: errorXml('PreconditionFailed', '<Condition>If-Match</Condition>') },
    NoSuchUpload: { status: 404, body: errorXml('NoSuchUpload') },
    'no message': { status: 400, body: xml('Error', '<Code>InvalidArgument</Code><RequestId>R</RequestId>') },
    'an empty 404 (HEAD)': { status: 404, headers: { 'x-oss-request-id': 'RID-2' } },
    'an empty 412': { status: 412, headers: { 'x-oss-request-id': 'RID-3' } },
    'an empty 502': { status: 502, headers: { 'x-oss-request-id': 'RID-4' } },
    'the document in x-oss-err (HEAD)': {
      status: 403,
      headers: {
        'x-oss-request-id': 'RID-5',
        'x-oss-err': Buffer.from(errorXml('SecurityTokenExpired')).toString('base64'),
      },
    },
  }
  for (const [what, failed] of Object.entries(answers)) {
    test(what, async () => {
      const answer = (url: string, request: OssHttpRequest) =>
        request.method === 'POST' && url.endsWith('uploads=') ? okAnswers()(url, request) : failed
      const operations: Array<(c: OssClient) => Promise<unknown>> = [
        (c) => c.uploadPart('k.bin', 'U', 1, body(3)),
        (c) => c.abort('k.bin', 'U'),
      ]
      for (const operation of operations) {
        const { aliOss, signed } = await bothWays(credentialOf('http://127.0.0.1:9000'), answer, operation)
        expect('failure' in signed.result).toBe(true)
        expect(signed.result).toEqual(aliOss.result)
      }
    })
  }

  test('a body that is not an error document: the same kind and code, the request id of the header, nothing of the body', async () => {
    const body = '<html>Bad gateway. Signature: c2VjcmV0LXNpZ25hdHVyZQ==</html><p>'
    const { aliOss, signed } = await bothWays(
      credentialOf('http://127.0.0.1:9000'),
      () => ({ status: 502, body, headers: { 'x-oss-request-id': 'R9' } }),
      (c) => c.abort('k', 'U'),
    )
    const fields = ({ result }: typeof signed) =>
      'failure' in result ? { ...result.failure, message: undefined, requestId: undefined } : result
    expect(fields(signed)).toEqual(fields(aliOss))
    expect(signed.result).toMatchObject({ failure: { requestId: 'R9' } })
    expect(JSON.stringify(signed.result)).not.toContain('c2VjcmV0')
  })

  test('a success without what the operation needs is a fatal upload_failed', async () => {
    const cases: Array<[Answer, (c: OssClient) => Promise<unknown>]> = [
      [
        { status: 200, body: xml('InitiateMultipartUploadResult', '<Bucket>b</Bucket>') },
        (c) => c.initiate('k'),
      ],
      [{ status: 200, body: '<InitiateMultipartUploadResult><UploadId>U' }, (c) => c.initiate('k')],
      [{ status: 200 }, (c) => c.uploadPart('k', 'U', 1, body(1))],
      [
        { status: 200, body: xml('ListPartsResult', `<IsTruncated>maybe</IsTruncated>`) },
        (c) => c.listParts('k', 'U'),
      ],
      [{ status: 200, body: xml('ListPartsResult', `${part(0)}`) }, (c) => c.listParts('k', 'U')],
    ]
    for (const [answer, operation] of cases) {
      const { signed } = await bothWays(credentialOf('http://127.0.0.1:9000'), () => answer, operation)
      expect(signed.result).toMatchObject({
        failure: { kind: 'fatal', code: 'upload_failed', status: undefined },
      })
    }
  })
})

describe('the XML readers', () => {
  test('one part, many parts, escaped entities, whitespace, unquoted and escaped ETags, CDATA', () => {
    expect(listPartsOf(xml('ListPartsResult', `<IsTruncated>false</IsTruncated>${part(1)}`))).toEqual({
      parts: [{ number: 1, etag: '"ETAG1"', size: 1024 }],
      next: undefined,
    })
    const spaced = `\uFEFF<?xml version="1.0"?>\n<!-- a comment -->\n<ListPartsResult xmlns="http://doc.oss-cn-hangzhou.aliyuncs.com">
      <NextPartNumberMarker> 9 </NextPartNumberMarker>
      <IsTruncated> TRUE </IsTruncated>
      <Part>\n <PartNumber> 9 </PartNumber>\n <ETag>&quot;0F&#x41;&#66;&quot;</ETag>\n <Size>\n 5\n </Size>\n </Part>
      <Part><PartNumber>8</PartNumber><ETag>BARE</ETag><Size>0</Size><Extra a='1'/></Part>
      <Part><PartNumber>7</PartNumber><ETag><![CDATA["C<D>"]]></ETag><Size>1</Size></Part>
    </ListPartsResult>\n`
    expect(listPartsOf(spaced)).toEqual({
      parts: [
        { number: 9, etag: '"0FAB"', size: 5 },
        { number: 8, etag: '"BARE"', size: 0 },
        { number: 7, etag: '"C<D>"', size: 1 },
      ],
      next: '9',
    })
    expect(listUploadsOf(xml('ListMultipartUploadsResult', '<IsTruncated>false</IsTruncated>'))).toEqual({
      uploads: [],
      next: undefined,
    })
  })

  test('strict: not well-formed, a DTD, another root, bad entities or numbers are not read', () => {
    const bad = [
      '',
      'plain text',
      '<ListPartsResult>',
      '<ListPartsResult><Part></ListPartsResult>',
      '<ListPartsResult></ListPartsResult><ListPartsResult></ListPartsResult>',
      '<ListPartsResult></ListPartsResult>trailing',
      '<!DOCTYPE x [<!ENTITY e "boom">]><ListPartsResult>&e;</ListPartsResult>',
      '<Other></Other>',
      '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><ETag>&bogus;</ETag><Size>1</Size></Part></ListPartsResult>',
      '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><ETag>a & b</ETag><Size>1</Size></Part></ListPartsResult>',
      '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>x</PartNumber><ETag>E</ETag><Size>1</Size></Part></ListPartsResult>',
      '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><ETag>E</ETag><Size>-1</Size></Part></ListPartsResult>',
      '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><Size>1</Size></Part></ListPartsResult>',
    ]
    for (const text of bad) expect(listPartsOf(text), text).toBeUndefined()
    expect(readXml('<a><b>1</b><b>2</b></a>', 'a')?.children.map((c) => c.text)).toEqual(['1', '2'])
    expect(readXml('<a>&#0;</a>', 'a')).toBeUndefined()
  })
})

describe("the credential checks of ali-oss's constructor, before anything is sent", () => {
  const cases: Array<Partial<UploadCredential>> = [
    {},
    { bucket: 'UPPER' },
    { bucket: 'ab' },
    { bucket: 'a' },
    { bucket: '-leading' },
    { bucket: 'under_score' },
    { bucket: 'x'.repeat(64) },
    { bucket: 'x'.repeat(63) },
    { endPoint: 'http://127.0.0.1:9000' },
    { endPoint: 'https://oss-cn-hangzhou.aliyuncs.com' },
    { endPoint: 'oss-cn-hangzhou.aliyuncs.com' },
    { endPoint: 'http://bad host' },
    { endPoint: 'http://host?x=1' },
    { endPoint: 'https://user@host' },
    { endPoint: 'http://host/with/path' },
    { accessKeyId: '' },
    { accessKeySecret: '' },
    { securityToken: '' },
  ]
  for (const overrides of cases) {
    test(JSON.stringify(overrides), async () => {
      const credential = credentialOf('http://127.0.0.1:9000', overrides)()
      let expected: Record<string, unknown> | string
      try {
        const { options } = new OSS({
          endpoint: endpointUrl(credential.endPoint),
          bucket: credential.bucket,
          accessKeyId: credential.accessKeyId,
          accessKeySecret: credential.accessKeySecret,
          stsToken: credential.securityToken,
          refreshSTSTokenInterval: 1,
        })
        const endpoint = options.endpoint as { protocol: string; host: string; hostname: string }
        expected = {
          endpoint: { protocol: endpoint.protocol, host: endpoint.host, hostname: endpoint.hostname },
          bucket: options.bucket,
          accessKeyId: options.accessKeyId,
          accessKeySecret: options.accessKeySecret,
          stsToken: options.stsToken,
        }
      } catch (error) {
        expected = (error as Error).message
      }
      expect(checkedOptions(credential)).toEqual(expected)
      const { http, sent } = scriptedHttp(okAnswers())
      const connected = async () => ossConnection(credentialAccess(credential), http, nodeSigning)
      if (typeof expected === 'string') {
        await expect(connected()).rejects.toMatchObject({ code: 'invalid_credentials' })
        const error = (await rejectionOf(connected(), 'the credential was accepted')) as Error
        for (const secret of [credential.accessKeySecret, credential.securityToken])
          if (secret.trim()) expect(error.message).not.toContain(secret.trim())
      } else await expect(connected()).resolves.toBeDefined()
      expect(sent).toEqual([])
    })
  }

  test('a credential without a bucket, which ali-oss refuses at each request, is refused up front', async () => {
    const { http, sent } = scriptedHttp(okAnswers())
    const credential = credentialOf('http://127.0.0.1:9000', { bucket: '' })()
    expect(() => ossConnection(credentialAccess(credential), http, nodeSigning)).toThrow(
      expect.objectContaining({ code: 'invalid_credentials' }),
    )
    expect(sent).toEqual([])
  })
})
