import { defineProject } from 'vitest/config'

// test/routes.test.ts drives the app's route handlers (the functions Next.js calls with a Web
// Request) against a simulator. test/next-build.test.ts runs the app as it ships: `next build`,
// started in the background when the run starts (test/next-build.setup.ts), then `next start`.
export default defineProject({
  resolve: { alias: { '@/': `${import.meta.dirname}/` } },
  test: {
    name: 'example-nextjs',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/next-build.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
