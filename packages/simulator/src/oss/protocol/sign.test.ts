import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { authenticate, parseAuthorization } from './auth.ts'
import type { OssCredential } from './credentials.ts'
import type { QueryParams } from './request.ts'
import { canonicalResourceV1, signatureV1, stringToSignV1 } from './sign-v1.ts'
import { canonicalRequestV4 } from './sign-v4.ts'

// ali-oss's own signing code is the oracle: the server must agree with the client byte for byte.
const require = createRequire(import.meta.url)
const signUtils = createRequire(require.resolve('ali-oss'))('./common/signUtils') as {
  buildCanonicalString(
    method: string,
    resource: string,
    request: { headers: object; parameters?: unknown },
  ): string
  computeSignature(secret: string, stringToSign: string): string
  getCanonicalRequest(
    method: string,
    request: { headers: object; queries: object },
    bucket: string,
    key: string,
    extra?: string[],
  ): string
  authorizationV4(
    ak: string,
    secret: string,
    region: string,
    method: string,
    request: { headers: object; queries: object },
    bucket: string,
    key: string,
    extra?: string[],
  ): string
}

const KEYS = ['dir/big.bin', 'dir/a b+c.txt', 'dir/ünï cødé 文件 (1)!*.bin', "dir/100% sure?#&='.txt"]

describe('signature V1', () => {
  const date = 'Tue, 21 Jul 2026 08:00:00 GMT'
  const headers = {
    'x-oss-date': date,
    'Content-Type': 'application/octet-stream',
    'Content-MD5': 'XUFAKrxLKna5cZ2REBfFkg==',
    'x-oss-security-token': 'tok',
    'x-oss-meta-Owner': ' someone ',
  }

  it('matches the UploadPart example of docs/service-behaviour.md', () => {
    const request = {
      method: 'PUT',
      bucket: 'mybucket',
      key: 'dir/big.bin',
      query: [
        ['partNumber', '2'],
        ['uploadId', 'UP1'],
      ] as QueryParams,
      headers: new Headers({
        'x-oss-date': date,
        'content-type': 'application/octet-stream',
        'x-oss-security-token': 'tok',
      }),
    }
    expect(stringToSignV1(request, date)).toBe(
      `PUT\n\napplication/octet-stream\n${date}\nx-oss-date:${date}\nx-oss-security-token:tok\n/mybucket/dir/big.bin?partNumber=2&uploadId=UP1`,
    )
  })

  it.each(KEYS)('agrees with ali-oss for key %j', (key) => {
    const subres = { uploadId: 'UP1', partNumber: 2 }
    const expected = signUtils.buildCanonicalString('PUT', `/mybucket/${key}`, {
      headers,
      parameters: subres,
    })
    // Non-sub-resource query parameters (max-parts) stay out of the V1 resource, as ali-oss leaves them.
    const query: QueryParams = [
      ['uploadId', 'UP1'],
      ['max-parts', '10'],
      ['partNumber', '2'],
    ]
    const actual = stringToSignV1(
      { method: 'PUT', bucket: 'mybucket', key, query, headers: new Headers(headers) },
      date,
    )
    expect(actual).toBe(expected)
    expect(signatureV1('secret', actual)).toBe(signUtils.computeSignature('secret', expected))
  })

  it('writes valueless sub-resources bare', () => {
    expect(canonicalResourceV1('b', 'k', [['uploads', '']])).toBe('/b/k?uploads')
    expect(
      canonicalResourceV1('b', 'k', [
        ['security-token', 'T'],
        ['response-content-type', 'a/b'],
      ]),
    ).toBe('/b/k?response-content-type=a/b&security-token=T')
  })
})

describe('signature V4', () => {
  const isoDate = '20260721T080000Z'
  const headers = {
    'x-oss-date': isoDate,
    'x-oss-content-sha256': 'UNSIGNED-PAYLOAD',
    'content-type': 'text/plain',
    'x-oss-security-token': 'tok',
  }

  it.each(KEYS)('canonical request agrees with ali-oss for key %j', (key) => {
    const expected = signUtils.getCanonicalRequest(
      'POST',
      { headers, queries: { uploads: null, 'max-parts': '5' } },
      'mybucket',
      key,
    )
    const actual = canonicalRequestV4(
      {
        method: 'POST',
        bucket: 'mybucket',
        key,
        query: [
          ['uploads', ''],
          ['max-parts', '5'],
        ],
        headers: new Headers(headers),
      },
      [],
    )
    expect(actual).toBe(expected)
  })

  it('verifies an Authorization header built by ali-oss, additional headers included', () => {
    const credential: OssCredential = {
      accessKeyId: 'AK',
      accessKeySecret: 'secret',
      securityToken: 'tok',
      bucket: 'mybucket',
      dir: '',
    }
    const all = { ...headers, host: 'mybucket.oss-cn-hangzhou.aliyuncs.com' }
    const authorization = signUtils.authorizationV4(
      'AK',
      'secret',
      'cn-hangzhou',
      'PUT',
      { headers: all, queries: { partNumber: 3, uploadId: 'UP1' } },
      'mybucket',
      KEYS[2] as string,
      ['host'],
    )
    expect(authorization).toContain('AdditionalHeaders=host,')
    const request = {
      method: 'PUT',
      bucket: 'mybucket',
      key: KEYS[2] as string,
      query: [
        ['partNumber', '3'],
        ['uploadId', 'UP1'],
      ] as QueryParams,
      headers: new Headers({ ...all, authorization }),
    }
    const options = {
      credentials: { get: () => credential },
      now: Date.UTC(2026, 6, 21, 8, 5),
      region: 'cn-hangzhou',
    }
    expect(authenticate(request, parseAuthorization(request), options)).toEqual({ credential })
    const tampered = {
      ...request,
      query: [
        ['partNumber', '4'],
        ['uploadId', 'UP1'],
      ] as QueryParams,
    }
    const result = authenticate(tampered, parseAuthorization(tampered), options)
    expect(result).toMatchObject({ failure: { code: 'SignatureDoesNotMatch' } })
    expect(JSON.stringify(result)).toContain('partNumber=4&uploadId=UP1')
  })
})
