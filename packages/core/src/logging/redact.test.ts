import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED } from './redact.ts'

describe('createRedactor', () => {
  const redact = createRedactor(['sk_live_abcdef123456', undefined, 'ab'])

  test('scrubs known secret values anywhere in strings, also URL-encoded', () => {
    expect(redact('key sk_live_abcdef123456 leaked')).toBe(`key ${REDACTED} leaked`)
    const r2 = createRedactor(['tok/en+1='])
    expect(r2(`?x=${encodeURIComponent('tok/en+1=')}`)).toBe(`?x=${REDACTED}`)
  })

  test('short values are not treated as secrets (they would shred ordinary text)', () => {
    expect(redact('ab cd')).toBe('ab cd')
  })

  test('replaces values under secret-looking keys, deeply, without mutating the input', () => {
    const input = {
      accessKeyId: 'STS.id',
      accessKeySecret: 's3cr3t',
      securityToken: 'tok',
      nested: [{ password: 'p', Authorization: 'Bearer x', loginUrl: 'https://x/?token=abc' }],
      tokenType: 'Bearer',
    }
    const out = redact(input)
    expect(out).toEqual({
      accessKeyId: 'STS.id',
      accessKeySecret: REDACTED,
      securityToken: REDACTED,
      nested: [{ password: REDACTED, Authorization: REDACTED, loginUrl: REDACTED }],
      tokenType: 'Bearer',
    })
    expect(input.accessKeySecret).toBe('s3cr3t')
  })

  test('scrubs token query parameters and authorization values in free text', () => {
    expect(redact('go to https://h/auth/impersonation-login?token=T0K3N&callbackUrl=%2F')).toBe(
      `go to https://h/auth/impersonation-login?token=${REDACTED}&callbackUrl=%2F`,
    )
    expect(redact('header was Bearer abc.def')).toBe(`header was Bearer ${REDACTED}`)
  })

  test('secrets added later are scrubbed too', () => {
    const r = createRedactor()
    r.add('later-secret-value')
    expect(r({ note: 'later-secret-value' })).toEqual({ note: REDACTED })
  })
})
