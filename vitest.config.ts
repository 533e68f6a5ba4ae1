import { defineConfig } from 'vitest/config'

// One run over every package. Each package with tests has its own vitest.config.ts
// (a project); tests import workspace packages from source through the
// `@service-sdk/source` export condition, so no build is needed to test.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'internal/*/vitest.config.ts',
      'examples/*/vitest.config.ts',
    ],
    passWithNoTests: false,
  },
})
