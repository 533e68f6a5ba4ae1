import { defineProject } from 'vitest/config'

export default defineProject({
  // In the monorepo, the SDK's packages are read from source (no build needed to test).
  resolve: { conditions: ['@service-sdk/source'] },
  ssr: { resolve: { conditions: ['@service-sdk/source'] } },
  test: { name: 'example-msw-node', include: ['test/**/*.test.ts'], testTimeout: 30_000 },
})
