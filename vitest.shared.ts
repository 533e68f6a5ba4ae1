import { defineProject, mergeConfig, type ViteUserConfig } from 'vitest/config'

/** The per-package vitest project: source resolution and sane defaults, named after the package folder. */
export function project(name: string, overrides: ViteUserConfig = {}) {
  return mergeConfig(
    defineProject({
      resolve: { conditions: ['@service-sdk/source'] },
      ssr: { resolve: { conditions: ['@service-sdk/source'] } },
      test: {
        name,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    }),
    overrides,
  )
}
