import { documentedDefaults } from '@service-sdk/testkit'
import { expect, test } from 'vitest'
import { HOOK_DEFAULTS } from './settings.ts'

// Every "Default ..." of a hook option's doc comment is the code's (the upload options' own are
// checked in @service-sdk/open).
const index = new URL('../index.ts', import.meta.url).pathname

test('the hook options document their defaults', () => {
  expect(documentedDefaults(index, 'UseUploadsOptions')).toMatchObject(HOOK_DEFAULTS)
  expect(documentedDefaults(index, 'UseUploadOptions')).toMatchObject({
    throttleMs: HOOK_DEFAULTS.throttleMs,
  })
})
