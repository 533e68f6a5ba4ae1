import { documentedDefaults } from '@service-sdk/testkit'
import { expect, test } from 'vitest'
import { DEFAULT_RETRY } from './retry.ts'
import { DEFAULT_TIMEOUT_MS } from './transport.ts'

// Every "Default ..." of an option's doc comment (what an editor shows on hover) is the code's.
const here = (file: string) => new URL(file, import.meta.url).pathname

test("ClientOptions and RetryOptions document the transport's defaults", () => {
  expect(documentedDefaults(here('./transport.ts'), 'ClientOptions')).toEqual({
    timeoutMs: DEFAULT_TIMEOUT_MS,
    retry: DEFAULT_RETRY.maxRetries,
  })
  expect(documentedDefaults(here('./transport.ts'), 'ClientOptions', ['retry'])).toEqual(DEFAULT_RETRY)
  expect(documentedDefaults(here('./retry.ts'), 'RetryOptions')).toEqual(DEFAULT_RETRY)
})
