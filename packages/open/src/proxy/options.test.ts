import { ServiceValidationError } from '@service-sdk/core'
import { describe, expect, test } from 'vitest'
import { checkProxyOptions, type UploadProxyOptions } from './options.ts'

const valid: UploadProxyOptions = {
  openUrl: 'https://open.example.com',
  token: { type: 'Token', value: 'server-token-value' },
  authorize: () => ({ id: 'u1' }),
}

const issuesOf = (options: Partial<UploadProxyOptions>) => {
  try {
    checkProxyOptions({ ...valid, ...options } as UploadProxyOptions)
  } catch (error) {
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    return (error as ServiceValidationError).issues.map((i) => i.path)
  }
  return []
}

describe('upload proxy options', () => {
  test('valid options pass', () => {
    expect(issuesOf({})).toEqual([])
    expect(
      issuesOf({ allowedOrigins: ['https://a.example'], allowCredentials: true, maxBodyBytes: 4096 }),
    ).toEqual([])
    expect(
      issuesOf({ allowedOrigins: (origin) => origin.endsWith('.example'), signedUrlTtlSeconds: 60 }),
    ).toEqual([])
  })

  test('each bad option is named', () => {
    expect(issuesOf({ authorize: undefined as never })).toEqual(['authorize'])
    expect(issuesOf({ secret: 'short' })).toEqual(['secret'])
    expect(issuesOf({ maxBodyBytes: 10 })).toEqual(['maxBodyBytes'])
    expect(issuesOf({ maxBodyBytes: 1.5e3 + 0.5 })).toEqual(['maxBodyBytes'])
    expect(issuesOf({ allowedOrigins: 42 as never })).toEqual(['allowedOrigins'])
    expect(issuesOf({ allowedOrigins: ['*'] })).toEqual(['allowedOrigins'])
    expect(issuesOf({ allowedOrigins: ['https://a.example/path'] })).toEqual(['allowedOrigins'])
    expect(issuesOf({ signedUrlTtlSeconds: 0 })).toEqual(['signedUrlTtlSeconds'])
    expect(issuesOf({ signedUrlTtlSeconds: 3601 })).toEqual(['signedUrlTtlSeconds'])
    expect(issuesOf({ signedUrlTtlSeconds: Number.NaN })).toEqual(['signedUrlTtlSeconds'])
    expect(issuesOf({ credentialTtlMs: -1 })).toEqual(['credentialTtlMs'])
  })

  test('the error names no secret', () => {
    try {
      checkProxyOptions({ ...valid, secret: 'tiny' })
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain('server-token-value')
      expect(String(error)).not.toContain('tiny')
    }
  })
})
