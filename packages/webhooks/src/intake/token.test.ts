import { describe, expect, it } from 'vitest'
import { generateWebhookToken, lastPathSegment, tokenCheck } from './token.ts'

describe('generateWebhookToken', () => {
  it('gives 256 random bits as 43 URL-safe characters, different every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateWebhookToken))
    expect(tokens.size).toBe(1000)
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    }
  })
})

describe('tokenCheck', () => {
  const a = generateWebhookToken()
  const b = generateWebhookToken()

  it('accepts the token and nothing else', () => {
    const check = tokenCheck(a)
    expect(check(a)).toBe(true)
    expect(check(b)).toBe(false)
    expect(check(a.slice(0, -1))).toBe(false)
    expect(check(`${a}x`)).toBe(false)
    expect(check('')).toBe(false)
    expect(check(undefined)).toBe(false)
  })

  it('refuses a candidate that differs in any one character, or only in length', () => {
    const check = tokenCheck(a)
    for (let i = 0; i < a.length; i++) {
      const other = a[i] === 'A' ? 'B' : 'A'
      expect(check(a.slice(0, i) + other + a.slice(i + 1))).toBe(false)
    }
    expect(check(`${a}\u0000`)).toBe(false)
    expect(check(a + a)).toBe(false)
    expect(check(a.slice(1))).toBe(false)
  })

  it('accepts every token of a rotation', () => {
    const check = tokenCheck([b, a])
    expect(check(a)).toBe(true)
    expect(check(b)).toBe(true)
    expect(check(generateWebhookToken())).toBe(false)
  })

  it('is off only when told so explicitly', () => {
    expect(tokenCheck(false)(undefined)).toBe(true)
    expect(() => tokenCheck(undefined)).toThrow(/needs `token`/)
    expect(() => tokenCheck([])).toThrow(/needs `token`/)
  })

  it('refuses weak or unusable tokens without repeating them', () => {
    for (const weak of [
      'short',
      'a'.repeat(21),
      'has spaces in it 1234567890',
      'slash/slash/slash/slash/x',
    ]) {
      let message = ''
      try {
        tokenCheck(weak)
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toMatch(/not usable/)
      expect(message).not.toContain(weak)
    }
  })
})

describe('lastPathSegment', () => {
  it.each([
    ['/webhooks/abc', 'abc'],
    ['/webhooks/abc/', 'abc'],
    ['/webhooks/abc?x=1', 'abc'],
    ['https://example.com/hooks/service/abc?x=/y', 'abc'],
    ['/', undefined],
    ['', undefined],
    ['/webhooks//', undefined],
  ])('%s -> %s', (path, segment) => {
    expect(lastPathSegment(path)).toBe(segment)
  })
})
