import { ServiceApiError, type UploadCredential } from '@service-sdk/core'
import { describe, expect, test } from 'vitest'
import { nodeSigning } from '../node/signing.ts'
import type { RequestContext } from '../oss/types.ts'
import { credentialAccess, type StorageAccess } from './access.ts'
import { OssClient, ossConnection } from './connection.ts'
import type { OssBody, OssHttp, OssHttpRequest } from './types.ts'

const credential = (n: number): StorageAccess => credentialAccess(sts(n))
const sts = (n: number): UploadCredential => ({
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
      return { status: 200, headers, data }
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

describe('one connection per store access', () => {
  test('an access gets one connection per HTTP layer; another access or layer gets its own', () => {
    const a = recordingHttp().http
    const b = recordingHttp().http
    const one = credential(1)
    expect(ossConnection(one, a, nodeSigning)).toBe(ossConnection(one, a, nodeSigning))
    expect(ossConnection(credential(2), a, nodeSigning)).not.toBe(ossConnection(one, a, nodeSigning))
    expect(ossConnection(one, b, nodeSigning)).not.toBe(ossConnection(one, a, nodeSigning))
  })

  test("clients sharing a connection send each request with their own upload's context", async () => {
    const { http, seen } = recordingHttp()
    const connection = ossConnection(credential(3), http, nodeSigning)
    const first = context(1_000)
    const second = context(2_000)
    await new OssClient(connection, first).put('upload/1/a', body())
    await new OssClient(connection, second).put('upload/1/b', body())
    await new OssClient(connection, first).uploadPart('upload/1/c', 'U1', 2, body())
    expect(seen.map((r) => r.ctx)).toEqual([first, second, first])
    expect(seen[0]?.ctx).toBe(first)
    expect(seen[1]?.ctx).toBe(second)
  })

  test('control requests carry the timeout too', async () => {
    const { http, seen } = recordingHttp()
    const client = new OssClient(ossConnection(credential(4), http, nodeSigning), context(3_000))
    expect(await client.initiate('upload/1/d')).toBe('U1')
    await client.complete('upload/1/d', 'U1', [{ number: 1, etag: '"E"', size: 1 }])
    expect(seen.map((r) => [r.method, r.ctx.timeoutMs])).toEqual([
      ['POST', 3_000],
      ['POST', 3_000],
    ])
  })
})

describe('requests signed elsewhere (the upload proxy)', () => {
  test("a signer's refusal reaches the upload as the SDK error it is; nothing is sent", async () => {
    const { http, seen } = recordingHttp()
    const refusal = new ServiceApiError({
      status: 403,
      code: 'outside_upload_dir',
      area: 'open',
      method: 'POST',
      path: '/oss/sign',
      message: "Only requests for the caller's own objects are signed.",
    })
    const access: StorageAccess = {
      endPoint: 'http://127.0.0.1:9',
      bucket: 'media-bucket',
      dir: 'upload/1/u1/',
      remote: { sign: () => Promise.reject(refusal), refused: () => {} },
    }
    const client = new OssClient(ossConnection(access, http, {}), context(1_000))
    await expect(client.put('upload/1/u2/a', body())).rejects.toBe(refusal)
    expect(seen).toEqual([])
  })
})
