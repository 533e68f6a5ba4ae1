import { UploadError } from '@service-sdk/core'
import { expect, test } from 'vitest'
import { indexedDbCheckpoints } from './indexeddb-checkpoints.ts'

// The store itself runs in Chromium (test/proxy-browser-resume.test.ts): a reload, then a resume.

test('where there is no IndexedDB (Node), the store refuses at once with an error that says what to do', () => {
  let error: unknown
  try {
    indexedDbCheckpoints()
  } catch (thrown) {
    error = thrown
  }
  expect(UploadError.isInstance(error)).toBe(true)
  expect(error).toMatchObject({ code: 'checkpoint_unavailable' })
  expect((error as Error).message).toMatch(/without a checkpoint|CheckpointStore of your own/)
})
