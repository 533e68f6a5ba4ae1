import { ServiceConnectionError } from '@service-sdk/core'
import { describe, expect, test } from 'vitest'
import { toHttpError } from './errors.ts'

describe('toHttpError', () => {
  test('anything unexpected is a generic 500: never its message, which may hold anything', () => {
    const http = toHttpError(new Error('connect to postgres://demo:hunter2@db failed'))
    expect(http.status).toBe(500)
    expect(http.body.error.code).toBe('internal')
    expect(JSON.stringify(http)).not.toContain('hunter2')
  })

  test("the SDK's messages are shown as they are (they never hold a secret)", () => {
    const http = toHttpError(
      new ServiceConnectionError('The service could not be reached', { reachedServer: false }),
    )
    expect(http).toMatchObject({ status: 502, body: { error: { code: 'upstream_unreachable' } } })
    expect(http.body.error.message).toContain('could not be reached')
  })
})
