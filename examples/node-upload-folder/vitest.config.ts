import { defineProject } from 'vitest/config'

// The smoke test: the script run as a user runs it, against a simulator started by the test.
export default defineProject({
  test: {
    name: 'example-node-upload-folder',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
