import { describe, expect, it } from 'vitest'
import { applyCors, type OssCors, preflight } from './cors.ts'

const ORIGIN = 'https://app.example.com'

const asked = (origin: string, method = 'PUT', headers = 'content-type') =>
  new Request('http://oss.test/uploads/a.txt', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      ...(headers ? { 'access-control-request-headers': headers } : {}),
    },
  })

const answerHeaders = (cors: OssCors, method = 'PUT', origin = ORIGIN) => {
  const headers = new Headers()
  applyCors(new Request('http://oss.test/a', { method, headers: { origin } }), headers, cors)
  return Object.fromEntries(headers)
}

describe('the bucket CORS rules', () => {
  it("'open' allows any origin, the five methods and any header, and exposes ETag and the CRC", () => {
    const answer = preflight(asked(ORIGIN, 'PUT', 'content-type,x-oss-date'), 'open')
    expect('headers' in answer && Object.fromEntries(answer.headers)).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'GET, PUT, POST, DELETE, HEAD',
      'access-control-allow-headers': 'content-type,x-oss-date',
      'access-control-expose-headers': 'ETag, x-oss-request-id, x-oss-hash-crc64ecma',
      'access-control-max-age': '86400',
      vary: 'Origin',
    })
    expect(answerHeaders('open')['access-control-expose-headers']).toBe(
      'ETag, x-oss-request-id, x-oss-hash-crc64ecma',
    )
  })

  it("'none' refuses every preflight and adds no Access-Control-* header to answers", () => {
    expect(preflight(asked(ORIGIN), 'none')).toEqual({
      refused: 'CORSResponse: CORS is not enabled for this bucket.',
    })
    expect(answerHeaders('none')).toEqual({})
  })

  it('rules: the first that matches origin (wildcards), method and every requested header applies', () => {
    const rules: OssCors = [
      {
        allowedOrigins: ['https://*.example.com'],
        allowedMethods: ['PUT', 'GET'],
        allowedHeaders: ['Content-*'],
      },
      {
        allowedOrigins: ['*'],
        allowedMethods: ['GET'],
        exposeHeaders: ['x-oss-request-id'],
        maxAgeSeconds: 5,
      },
    ]
    const first = preflight(asked(ORIGIN, 'PUT', 'content-type'), rules)
    expect('headers' in first && Object.fromEntries(first.headers)).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'PUT, GET',
      'access-control-allow-headers': 'content-type',
      vary: 'Origin',
    })
    // Another origin, a method or a header no rule allows: refused, naming what was asked.
    expect(preflight(asked('https://evil.test'), rules)).toEqual({
      refused: expect.stringMatching(
        /no CORS rule of the bucket allows origin https:\/\/evil\.test, method PUT/,
      ),
    })
    expect('refused' in preflight(asked(ORIGIN, 'DELETE'), rules)).toBe(true)
    expect('refused' in preflight(asked(ORIGIN, 'PUT', 'content-type,x-oss-date'), rules)).toBe(true)
    // The second rule: GET from anywhere, the request id exposed.
    expect(answerHeaders(rules, 'GET', 'https://evil.test')).toEqual({
      'access-control-allow-origin': 'https://evil.test',
      'access-control-expose-headers': 'x-oss-request-id',
      vary: 'Origin',
    })
    expect(answerHeaders(rules, 'POST')).toEqual({})
  })

  it('a preflight without Origin or requested method is refused, whatever the rules', () => {
    const bare = new Request('http://oss.test/a', { method: 'OPTIONS', headers: { origin: ORIGIN } })
    expect(preflight(bare, 'open')).toEqual({ refused: expect.stringMatching(/^Insufficient information/) })
  })
})
