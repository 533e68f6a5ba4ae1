import { defineConfig } from 'tsdown'

export default defineConfig({
  // src/schemas is built as an entry of its own (not an export: it is reached through index.js),
  // so that index.js only re-exports the schemas: a bundler that takes the errors or the codec
  // from `@service-sdk/core` drops the schemas and zod (sideEffects: false). The open client's
  // browser entry relies on this (packages/open/test/browser-size.test.ts).
  entry: ['src/index.ts', 'src/testing/index.ts', 'src/internal.ts', 'src/schemas/index.ts', 'src/otel.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'neutral',
  target: 'es2023',
  publint: true,
  attw: { profile: 'node16' },
})
