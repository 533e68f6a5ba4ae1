import { expectTypeOf, test } from 'vitest'
import type { UploadBatch, UploadFailure } from '../src/index.ts'

test("uploadMany: a rejected file's error is an UploadFailure, its code a union of the failures' codes", async () => {
  const batch = {} as UploadBatch
  for (const result of await batch.done()) {
    if (result.status === 'rejected') {
      expectTypeOf(result.error).toEqualTypeOf<UploadFailure>()
      expectTypeOf<'save_outcome_unknown'>().toExtend<typeof result.error.code>()
      expectTypeOf<'not_writable'>().toExtend<typeof result.error.code>()
      expectTypeOf(result.error.supportId).toEqualTypeOf<string | undefined>()
    }
  }
})
