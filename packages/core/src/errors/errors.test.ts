import { describe, expect, test } from 'vitest'
import {
  ServiceApiError,
  ServiceError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceValidationError,
  UploadError,
} from './errors.ts'

const init = {
  status: 404,
  code: 'not_found',
  message: 'gone',
  area: 'team',
  method: 'GET',
  path: '/x',
} as const

describe('error hierarchy', () => {
  test('isInstance follows the hierarchy', () => {
    const e = new ServiceNotFoundError(init)
    expect(e.name).toBe('ServiceNotFoundError')
    expect(ServiceNotFoundError.isInstance(e)).toBe(true)
    expect(ServiceApiError.isInstance(e)).toBe(true)
    expect(ServiceError.isInstance(e)).toBe(true)
    expect(ServicePermissionError.isInstance(e)).toBe(false)
    expect(ServiceApiError.isInstance(new UploadError({ message: 'x', code: 'y' }))).toBe(false)
    expect(ServiceError.isInstance(new Error('plain'))).toBe(false)
    expect(ServiceError.isInstance(null)).toBe(false)
  })

  test('isInstance works across copies of the SDK (marker, not prototype)', () => {
    const foreign = Object.assign(new Error('from another copy'), {
      [Symbol.for('@service-sdk/error')]: ['ServiceNotFoundError', 'ServiceApiError', 'ServiceError'],
    })
    expect(ServiceNotFoundError.isInstance(foreign)).toBe(true)
    expect(foreign instanceof ServiceNotFoundError).toBe(false)
    // The selector package cannot import core and marks its errors with `true`.
    const selector = Object.assign(new Error('s'), { [Symbol.for('@service-sdk/error')]: true })
    expect(ServiceError.isInstance(selector)).toBe(true)
    expect(ServiceApiError.isInstance(selector)).toBe(false)
  })

  test('toJSON carries the useful fields and the marker stays hidden', () => {
    const e = new ServicePermissionError({
      ...init,
      status: 403,
      reason: 'domain-not-whitelisted',
      domain: 'a.com',
    })
    expect(e.toJSON()).toMatchObject({
      name: 'ServicePermissionError',
      status: 403,
      reason: 'domain-not-whitelisted',
      domain: 'a.com',
      isRetryable: false,
    })
    expect(Object.getOwnPropertyDescriptor(e, Symbol.for('@service-sdk/error'))?.enumerable).toBe(false)
    expect(JSON.parse(JSON.stringify(e)).name).toBe('ServicePermissionError')
  })

  test('validation errors list each issue and say nothing was sent', () => {
    const e = new ServiceValidationError('team create input', [
      { path: 'email', message: 'Invalid email address' },
      { path: '', message: 'too many keys' },
    ])
    expect(e.message).toBe(
      'Invalid team create input: email: Invalid email address; too many keys. Nothing was sent.',
    )
    expect(e.isRetryable).toBe(false)
  })
})

describe('supportId: the id to quote to support, on every error', () => {
  test("an API error's traceId, an upload error's requestId; both names kept", () => {
    const api = new ServiceNotFoundError({ ...init, traceId: 'trace-1' })
    expect([api.traceId, api.requestId, api.supportId]).toEqual(['trace-1', undefined, 'trace-1'])
    const upload = new UploadError({ message: 'x', code: 'upload_failed', requestId: 'oss-req-1' })
    expect([upload.traceId, upload.requestId, upload.supportId]).toEqual([
      undefined,
      'oss-req-1',
      'oss-req-1',
    ])
    expect(upload.toJSON()).toMatchObject({ requestId: 'oss-req-1', supportId: 'oss-req-1' })
    expect(api.toJSON()).toMatchObject({ traceId: 'trace-1', supportId: 'trace-1' })
  })

  test("an error caused by a service error carries the cause's ids (a save failed after the upload)", () => {
    const cause = new ServiceNotFoundError({ ...init, traceId: 'trace-2' })
    const wrapped = new UploadError({ message: 'save failed', code: 'save_outcome_unknown', cause })
    expect([wrapped.traceId, wrapped.supportId]).toEqual(['trace-2', 'trace-2'])
  })

  test('an error with neither id has none, and says so in toJSON by leaving them out', () => {
    const e = new ServiceValidationError('x', [{ path: 'a', message: 'b' }])
    expect(e.supportId).toBeUndefined()
    expect(Object.keys(e.toJSON())).not.toContain('supportId')
  })
})
