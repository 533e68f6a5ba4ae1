import { defineProject } from 'vitest/config'

// The smoke test drives the app's route handlers (the functions Next.js calls with a Web Request)
// against a simulator. The full `next build` + `next start` run is test/next-build.test.ts, opt-in
// with NEXT_BUILD_SMOKE=1: it takes minutes on a small machine.
export default defineProject({
  resolve: { alias: { '@/': `${import.meta.dirname}/` } },
  test: {
    name: 'example-nextjs',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
