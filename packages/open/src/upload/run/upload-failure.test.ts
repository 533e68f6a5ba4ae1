import { ServiceNotFoundError, ServiceValidationError, UploadError } from '@service-sdk/core'
import { expect, test } from 'vitest'
import { SpaceNotWritableError } from '../../errors.ts'
import { asUploadFailure } from './upload-failure.ts'

test('the failures an upload has pass through unchanged', () => {
  for (const error of [
    new UploadError({ message: 'x', code: 'checksum_mismatch' }),
    new ServiceNotFoundError({
      status: 404,
      code: 'not_found',
      message: 'x',
      area: 'open',
      method: 'POST',
      path: '/p',
    }),
    new ServiceValidationError('upload options', [{ path: 'partSize', message: 'too small' }]),
    new SpaceNotWritableError('1001', 'view_only', 'view only'),
  ])
    expect(asUploadFailure(error)).toBe(error)
})

test('anything else becomes an UploadError upload_failed, with it as the cause', () => {
  const bug = new TypeError('x is not a function')
  const failure = asUploadFailure(bug)
  expect(UploadError.isInstance(failure)).toBe(true)
  expect(failure).toMatchObject({ code: 'upload_failed', cause: bug })
  expect(failure.message).toContain('TypeError: x is not a function')
})
