import { MAX_MATERIALS_PER_SAVE } from '@service-sdk/core'
import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from '@service-sdk/core/internal'
import { documentedDefaults } from '@service-sdk/testkit'
import { expect, test } from 'vitest'
import { DEFAULT_UPLOAD_RETRY, DEFAULTS } from './options.ts'

// Every "Default ..." of an option's doc comment (what an editor shows on hover) is the code's:
// the upload's retry defaults are its own, not the API calls' it once inherited the text of.
const index = new URL('../../index.ts', import.meta.url).pathname
const { maxRetries, initialDelayMs, maxDelayMs } = DEFAULT_UPLOAD_RETRY
const transfer = { partSize: DEFAULTS.partSize, parallel: DEFAULTS.parallel, timeoutMs: DEFAULTS.timeoutMs }

test('upload options document the upload defaults', () => {
  for (const name of ['UploadTransferOptions', 'UploadOptions'])
    expect(documentedDefaults(index, name), name).toEqual(transfer)
  expect(documentedDefaults(index, 'UploadManyOptions')).toEqual({
    ...transfer,
    concurrency: DEFAULTS.concurrency,
  })
  expect(documentedDefaults(index, 'UploadDefaults')).toEqual({
    ...transfer,
    concurrency: DEFAULTS.concurrency,
    credentialTtlMs: DEFAULTS.credentialTtlMs,
  })
  for (const name of ['UploadTransferOptions', 'UploadOptions', 'UploadManyOptions', 'UploadDefaults'])
    expect(documentedDefaults(index, name, ['retry']), name).toEqual({
      maxRetries,
      initialDelayMs,
      maxDelayMs,
    })
})

test("the client's options document the API calls' defaults", () => {
  expect(documentedDefaults(index, 'OpenClientOptions')).toEqual({
    maxMaterialsPerSave: MAX_MATERIALS_PER_SAVE,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    retry: DEFAULT_RETRY.maxRetries,
  })
  expect(documentedDefaults(index, 'OpenClientOptions', ['retry'])).toEqual(DEFAULT_RETRY)
})
