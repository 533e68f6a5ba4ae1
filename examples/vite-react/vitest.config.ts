import { defineProject } from 'vitest/config'

// The smoke test: the app built and served as a user runs it, driven in Chromium against a
// simulator started by the test.
export default defineProject({
  test: {
    name: 'example-vite-react',
    include: ['test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
})
