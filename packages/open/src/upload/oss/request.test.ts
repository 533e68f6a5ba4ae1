import { createRequire } from 'node:module'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { typeOfKey } from './content-type.ts'
import { hmacSha1 } from './hmac.ts'
import { type ObjectRequest, type OssOptions, objectSigner, type SignedRequest } from './request.ts'
import type { OssHttpRequest } from './types.ts'

/** The signer as Node uses it (node:crypto's HMAC: synchronous), as a function. */
function nodeSigner(options: OssOptions, userAgent: string) {
  const signer = objectSigner(options, {
    hmac: hmacSha1(options.accessKeySecret),
    typeOf: typeOfKey,
    userAgent,
  })
  return (request: ObjectRequest) => signer.sign(request) as SignedRequest
}

// The real ali-oss (it ships no declarations), typed for the calls PutObject went through.
interface AliOss {
  options: OssOptions
  userAgent: string
  _objectRequestParams(method: string, name: string, options: object): object
  request(params: object): Promise<unknown>
}
const OSS = createRequire(import.meta.url)('ali-oss') as new (options: object) => AliOss

/** The URL and headers ali-oss hands its HTTP layer for a PutObject. */
async function aliOssPut(oss: AliOss, key: string, size: number) {
  const seen: Array<{ url: string; headers: OssHttpRequest['headers'] }> = []
  const ctx = { ctx: {} }
  const params = oss._objectRequestParams('PUT', key, { ...ctx, headers: { 'Content-Length': size } })
  ;(oss as unknown as { urllib: unknown }).urllib = {
    request: async (url: string, request: OssHttpRequest) => {
      seen.push({ url, headers: request.headers })
      const res = { status: 200, statusCode: 200, headers: {}, size: 0, rt: 0, requestUrls: [url] }
      return { status: 200, headers: {}, data: '', res }
    },
  }
  await oss.request({ ...params, stream: {}, successStatuses: [200], disabledMD5: true })
  return seen[0]
}

/** Header values as they go on the wire (ali-oss leaves a length of 0 a number). */
const onWire = (request: { url: string; headers: OssHttpRequest['headers'] } | undefined) =>
  request && {
    url: request.url,
    headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
  }

/** What node:http is given when the URL is parsed (node/http.ts without `RequestTarget`). */
const partsOf = (url: string) => {
  const parsed = new URL(url)
  return {
    protocol: parsed.protocol,
    hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port,
    path: parsed.pathname + parsed.search,
    part: Number(parsed.searchParams.get('partNumber') ?? 0),
  }
}

const client = (endpoint: string, token = 'CAIS+token/with=chars ') =>
  new OSS({
    endpoint,
    bucket: 'media-bucket',
    accessKeyId: ' STS.id',
    accessKeySecret: 'se/cret+',
    stsToken: token,
    retryMax: 0,
    refreshSTSTokenInterval: 24 * 3_600_000,
  })

const keys = [
  'upload/1/photo.jpg',
  'upload/1/Photo Name (1).PNG',
  'upload/1/файл+plus&amp;.pdf',
  'upload/1/no-extension',
  'upload/1/archive.tar.gz',
  "upload/1/it's *here*!.unknownext",
  // Only characters that stay as they are in a URL path: the signer's shortcut.
  "upload/1/it's_(*here*)!~.v-1.bin",
  '/upload/1/leading-slash.txt',
  'upload/1/中文/目录.mp4',
  'upload/1/hash#question?.bin',
]

afterEach(() => {
  vi.useRealTimers()
})

describe('PutObject signed without ali-oss', () => {
  for (const endpoint of ['https://oss-cn-hangzhou.aliyuncs.com', 'http://127.0.0.1:9000']) {
    test(`the URL and headers are ali-oss's own, ${endpoint}`, async () => {
      vi.useFakeTimers({ now: Date.UTC(2026, 10, 4, 9, 5, 7), toFake: ['Date'] })
      const oss = client(endpoint)
      const sign = nodeSigner(oss.options, oss.userAgent)
      for (const [n, key] of keys.entries()) {
        const size = n === 0 ? 0 : 65_536 * n
        const { target, ...signed } = sign({ method: 'PUT', key, length: size })
        expect(signed, key).toEqual(onWire(await aliOssPut(oss, key, size)))
        expect(target, key).toEqual(partsOf(signed.url))
      }
    })
  }

  test('a key encodeURIComponent refuses (a lone surrogate) is signed as ali-oss signs it', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 4, 9, 5, 7), toFake: ['Date'] })
    const oss = client('https://oss-cn-hangzhou.aliyuncs.com')
    const key = 'upload/1/lone\ud800 a+b%2Fc.bin'
    const { target: _, ...signed } = nodeSigner(oss.options, oss.userAgent)({ method: 'PUT', key, length: 1 })
    expect(signed).toEqual(onWire(await aliOssPut(oss, key, 1)))
  })

  test("the URL's parts handed to the HTTP layer are the URL's, an UploadPart's part number too", () => {
    for (const endpoint of [
      'https://oss-cn-hangzhou.aliyuncs.com',
      'http://127.0.0.1:9000',
      'http://localhost:9000',
    ]) {
      const sign = nodeSigner(client(endpoint).options, 'agent')
      for (const key of keys) {
        const request = {
          method: 'PUT',
          key,
          subresource: { partNumber: 7, uploadId: 'U 1' },
          length: 1,
        } as const
        const { url, target } = sign(request)
        expect(target, key).toEqual({ ...partsOf(url), part: 7 })
        expect(sign({ method: 'POST', key, subresource: 'uploads' }).target.part).toBe(0)
      }
    }
  })

  test('each request carries the date of its second', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 4, 9, 5, 7, 900), toFake: ['Date'] })
    const sign = nodeSigner(client('https://oss-cn-hangzhou.aliyuncs.com').options, 'agent')
    const dateOf = () => sign({ method: 'PUT', key: 'k', length: 1 }).headers['x-oss-date']
    expect(dateOf()).toBe('Wed, 04 Nov 2026 09:05:07 GMT')
    vi.setSystemTime(Date.UTC(2026, 10, 4, 9, 5, 8, 50))
    expect(dateOf()).toBe('Wed, 04 Nov 2026 09:05:08 GMT')
    vi.setSystemTime(Date.UTC(2026, 10, 4, 9, 5, 7, 0)) // a clock set back
    expect(dateOf()).toBe('Wed, 04 Nov 2026 09:05:07 GMT')
  })

  test('without a security token, as ali-oss sends it', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 31, 23, 59, 59), toFake: ['Date'] })
    const oss = client('https://oss-cn-shanghai.aliyuncs.com', '')
    const sign = nodeSigner(oss.options, oss.userAgent)
    const { target: _target, ...signed } = sign({ method: 'PUT', key: 'dir/a.json', length: 10 })
    expect(signed).toEqual(onWire(await aliOssPut(oss, 'dir/a.json', 10)))
  })
})

describe("URLs signed for a browser (what the upload proxy hands out), as ali-oss's signatureUrl signs them", () => {
  // signatureUrl refuses IP endpoints; the simulator's are checked end to end (test/proxy.test.ts).
  const endpoint = 'https://oss-cn-hangzhou.aliyuncs.com'
  const now = Date.UTC(2026, 10, 4, 9, 5, 7)
  const cases: Array<{ request: ObjectRequest; sub?: Record<string, string | number> }> = [
    { request: { method: 'PUT', key: 'upload/1/u1/photo.jpg' } },
    { request: { method: 'PUT', key: 'upload/1/u1/файл+plus&.pdf' } },
    { request: { method: 'POST', key: 'upload/1/u1/big.mp4', subresource: 'uploads' }, sub: { uploads: '' } },
    {
      request: { method: 'PUT', key: 'upload/1/u1/big.mp4', subresource: { partNumber: 3, uploadId: 'U1' } },
      sub: { partNumber: 3, uploadId: 'U1' },
    },
    {
      request: {
        method: 'POST',
        key: 'upload/1/u1/big.mp4',
        subresource: { uploadId: 'U1' },
        content: { type: 'application/xml', length: 0 },
      },
      sub: { uploadId: 'U1' },
    },
    {
      request: { method: 'GET', key: 'upload/1/u1/big.mp4', subresource: { uploadId: 'U1' } },
      sub: { uploadId: 'U1' },
    },
    {
      request: { method: 'DELETE', key: 'upload/1/u1/big.mp4', subresource: { uploadId: 'U1' } },
      sub: { uploadId: 'U1' },
    },
    { request: { method: 'HEAD', key: 'upload/1/u1/photo.jpg', subresource: {} } },
  ]
  const sorted = (url: string) => {
    const parsed = new URL(url)
    return { at: parsed.origin + parsed.pathname, query: [...parsed.searchParams].sort() }
  }

  for (const token of ['CAIS+token/with=chars', '']) {
    test(`each request of an upload${token ? '' : ', without a security token'}`, async () => {
      vi.useFakeTimers({ now, toFake: ['Date'] })
      const oss = client(endpoint, token) as AliOss & {
        signatureUrl(name: string, options: object): string
      }
      const signer = objectSigner(oss.options, {
        hmac: hmacSha1(oss.options.accessKeySecret),
        typeOf: typeOfKey,
      })
      for (const { request, sub } of cases) {
        const type = request.content?.type ?? typeOfKey(request.key)
        const theirs = oss.signatureUrl(request.key, {
          method: request.method,
          expires: 300,
          ...(type ? { 'Content-Type': type } : {}),
          ...(sub ? { subResource: { ...sub } } : {}),
        })
        const ours = await signer.presign(request, Math.floor(now / 1000) + 300)
        expect(sorted(ours.url), `${request.method} ${request.key}`).toEqual(sorted(theirs))
        expect(ours.headers).toEqual(type ? { 'Content-Type': type } : {})
      }
    })
  }

  test('Web Crypto (browsers, edge runtimes) signs exactly as node:crypto does', async () => {
    const options = client(endpoint).options
    const viaNode = objectSigner(options, { hmac: hmacSha1(options.accessKeySecret) })
    const viaWeb = objectSigner(options, { hmac: hmacSha1(options.accessKeySecret, null) })
    for (const { request } of cases) {
      expect(viaWeb.presign(request, 1_800_000_000)).toBeInstanceOf(Promise)
      expect(await viaWeb.presign(request, 1_800_000_000)).toEqual(
        await viaNode.presign(request, 1_800_000_000),
      )
      vi.useFakeTimers({ now, toFake: ['Date'] })
      expect(await viaWeb.sign(request)).toEqual(await viaNode.sign(request))
    }
  })
})
