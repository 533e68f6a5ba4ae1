import { describe, expectTypeOf, test } from 'vitest'
import type {
  ServiceApiError,
  ServiceConnectionError,
  ServiceError,
  ServiceNotFoundError,
  ServiceResponseError,
  ServiceTimeoutError,
  ServiceValidationError,
  UploadError,
} from './errors.ts'

// Error codes are literal unions: `switch` completes them, a misspelt case of a closed union does
// not compile, and an open-ended one (the service may send codes the SDK does not know) makes an
// exhaustive switch handle the unknown codes too.

describe('error codes', () => {
  test('closed unions: every code handled leaves never; a misspelt case does not compile', () => {
    const e = {} as
      | ServiceTimeoutError
      | ServiceConnectionError
      | ServiceValidationError
      | ServiceResponseError
    const code = e.code
    switch (code) {
      case 'timeout':
      case 'connection_error':
      case 'validation_error':
      case 'invalid_response':
        break
      // @ts-expect-error: no error has this code
      case 'time_out':
        break
      default:
        expectTypeOf(code).toBeNever()
    }
  })

  test('open-ended unions: the known codes complete, and an exhaustive switch must handle unknown ones', () => {
    const e = {} as ServiceNotFoundError
    expectTypeOf<'not_found'>().toExtend<ServiceNotFoundError['code']>()
    expectTypeOf<'MB100003'>().toExtend<ServiceNotFoundError['code']>()
    switch (e.code) {
      case 'not_found':
      case 'MB100003':
        break
      default: {
        // @ts-expect-error: a code the SDK does not know is still possible here
        const unreachable: never = e.code
        expectTypeOf(e.code).toExtend<string>()
        void unreachable
      }
    }
  })

  test('each class has its own codes; the base class any string', () => {
    expectTypeOf<'MB100005'>().toExtend<ServiceApiError['code']>()
    expectTypeOf<'checksum_mismatch'>().toExtend<UploadError['code']>()
    expectTypeOf<'http_503'>().toExtend<UploadError['code']>()
    expectTypeOf<ServiceTimeoutError['code']>().toEqualTypeOf<'timeout'>()
    expectTypeOf<ServiceError['code']>().toEqualTypeOf<string>()
  })
})

test('every error has traceId, requestId and supportId', () => {
  for (const e of [{} as ServiceError, {} as ServiceApiError, {} as UploadError]) {
    expectTypeOf(e.supportId).toEqualTypeOf<string | undefined>()
    expectTypeOf(e.traceId).toEqualTypeOf<string | undefined>()
    expectTypeOf(e.requestId).toEqualTypeOf<string | undefined>()
  }
})
