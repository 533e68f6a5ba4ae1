import { defineProject } from 'vitest/config'

// No `@service-sdk/source` condition: the snippets are checked against the built packages, as a
// user gets them (the root test command builds first).
export default defineProject({
  test: { name: 'snippets', include: ['*.test.ts'], testTimeout: 120_000, hookTimeout: 300_000 },
})
