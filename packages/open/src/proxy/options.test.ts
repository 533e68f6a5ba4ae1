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
      issuesOf({ cors: { origin: ['https://a.example'], credentials: true }, maxBodyBytes: 4096 }),
    ).toEqual([])
  })

  test('each bad option is named', () => {
    expect(issuesOf({ authorize: undefined as never })).toEqual(['authorize'])
    expect(issuesOf({ secret: 'short' })).toEqual(['secret'])
    expect(issuesOf({ maxBodyBytes: 10 })).toEqual(['maxBodyBytes'])
    expect(issuesOf({ maxBodyBytes: 1.5e3 + 0.5 })).toEqual(['maxBodyBytes'])
    expect(issuesOf({ cors: { origin: 42 as never } })).toEqual(['cors.origin'])
    expect(issuesOf({ cors: { origin: '*', credentials: true } })).toEqual(['cors'])
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
