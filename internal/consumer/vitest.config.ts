import { defineProject } from 'vitest/config'

// No `@service-sdk/source` condition here: this project must see what users get from npm.
export default defineProject({
  test: { name: 'consumer', include: ['*.test.ts'], testTimeout: 120_000, hookTimeout: 300_000 },
})
