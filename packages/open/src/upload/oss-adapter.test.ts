import type { UploadCredential } from '@service-sdk/core'
import { describe, expect, test } from 'vitest'
import { type OssBody, OssClient, type OssHttp, type OssHttpRequest, ossConnection } from './oss-adapter.ts'
import type { RequestContext } from './platform.ts'

const credential = (n: number): UploadCredential => ({
  endPoint: 'http://127.0.0.1:9',
  bucket: 'media-bucket',
  dir: 'upload/1/',
  accessKeyId: `STS.${n}`,
  accessKeySecret: `secret-${n}`,
  securityToken: `token-${n}`,
})

/** An HTTP layer that answers every request with 200 and records what it was handed. */
function recordingHttp() {
  const seen: Array<{ url: string; method: string; ctx: RequestContext }> = []
  const http: OssHttp = {
    async request(url: string, params: OssHttpRequest) {
      seen.push({ url, method: params.method, ctx: params.ctx })
      const headers = { etag: '"E"', 'x-oss-hash-crc64ecma': '1', 'content-type': 'application/xml' }
      const data = url.includes('uploads')
        ? '<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>'
        : '<CompleteMultipartUploadResult></CompleteMultipartUploadResult>'
      const res = { status: 200, statusCode: 200, headers, size: data.length, rt: 0, requestUrls: [url] }
      return { status: 200, headers, data, res }
    },
  }
  return { http, seen }
}

const context = (timeoutMs: number): RequestContext => ({
  signal: new AbortController().signal,
  timeoutMs,
  onBodyBytes: () => {},
})
const body = (): OssBody => ({ size: 1, content: new Uint8Array(1), checksum: () => 0n })

describe('one ali-oss client per credential', () => {
  test('a credential gets one connection per HTTP layer; another credential or layer gets its own', async () => {
    const a = recordingHttp().http
    const b = recordingHttp().http
    const one = credential(1)
    expect(ossConnection(one, a)).toBe(ossConnection(one, a))
    expect(await ossConnection(one, a)).toBe(await ossConnection(one, a))
    expect(await ossConnection(credential(2), a)).not.toBe(await ossConnection(one, a))
    expect(await ossConnection(one, b)).not.toBe(await ossConnection(one, a))
  })

  test("clients sharing a connection send each request with their own upload's context", async () => {
    const { http, seen } = recordingHttp()
    const connection = await ossConnection(credential(3), http)
    const first = context(1_000)
    const second = context(2_000)
    await new OssClient(connection, first).put('upload/1/a', body())
    await new OssClient(connection, second).put('upload/1/b', body())
    await new OssClient(connection, first).uploadPart('upload/1/c', 'U1', 2, body())
    expect(seen.map((r) => r.ctx)).toEqual([first, second, first])
    expect(seen[0]?.ctx).toBe(first)
    expect(seen[1]?.ctx).toBe(second)
  })

  test('control requests carry the timeout too (CompleteMultipartUpload deep-copies its options)', async () => {
    const { http, seen } = recordingHttp()
    const client = new OssClient(await ossConnection(credential(4), http), context(3_000))
    expect(await client.initiate('upload/1/d')).toBe('U1')
    await client.complete('upload/1/d', 'U1', [{ number: 1, etag: '"E"', size: 1 }])
    expect(seen.map((r) => [r.method, r.ctx.timeoutMs])).toEqual([
      ['POST', 3_000],
      ['POST', 3_000],
    ])
  })
})
