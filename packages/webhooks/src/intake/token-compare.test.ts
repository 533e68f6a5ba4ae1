// How tokenCheck compares (a unit test of that one function, so the platform's comparison is
// watched through a spy): crypto.timingSafeEqual over equal-length digests, every token, always.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const compared = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }))
vi.mock('node:crypto', async (original) => {
  const crypto = await original<typeof import('node:crypto')>()
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.calls.push([a.byteLength, b.byteLength])
      return crypto.timingSafeEqual(a, b)
    },
  }
})

const { generateWebhookToken, tokenCheck } = await import('./token.ts')

describe('the token comparison', () => {
  beforeEach(() => {
    compared.calls.length = 0
  })

  it('is crypto.timingSafeEqual over fixed-length digests, whatever the candidate is', () => {
    const token = generateWebhookToken()
    const check = tokenCheck(token)
    for (const candidate of [token, token.slice(1), `${token}${token}`, '', undefined, 'x'])
      expect(check(candidate)).toBe(candidate === token)
    expect(compared.calls).toEqual(Array.from({ length: 6 }, () => [32, 32]))
  })

  it('compares every token of a rotation, with no early exit when the first matches', () => {
    const tokens = [generateWebhookToken(), generateWebhookToken(), generateWebhookToken()]
    expect(tokenCheck(tokens)(tokens[0])).toBe(true)
    expect(compared.calls).toHaveLength(3)
  })
})
