import { documentedDefaults } from '@service-sdk/testkit'
import { expect, test } from 'vitest'
import { DEFAULT_MAX_BODY_BYTES } from './intake/body.ts'
import { DEFAULT_EVENT_RETRY, DEFAULT_PROCESSING } from './worker/settings.ts'

// Every "Default ..." of an option's doc comment (what an editor shows on hover) is the code's:
// `processing.retry` documents the receiver's 11 retries, not an API call's 2.
const index = new URL('./index.ts', import.meta.url).pathname
const { maxRetries, initialDelayMs, maxDelayMs } = DEFAULT_EVENT_RETRY

test('the receiver and processing options document their defaults', () => {
  expect(documentedDefaults(index, 'WebhookReceiverOptions')).toEqual({
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  })
  expect(documentedDefaults(index, 'ProcessingOptions')).toEqual(DEFAULT_PROCESSING)
  expect(documentedDefaults(index, 'ProcessingOptions', ['retry'])).toEqual({
    maxRetries,
    initialDelayMs,
    maxDelayMs,
  })
  expect(documentedDefaults(index, 'WebhookReceiverOptions', ['processing', 'retry'])).toEqual({
    maxRetries,
    initialDelayMs,
    maxDelayMs,
  })
})
