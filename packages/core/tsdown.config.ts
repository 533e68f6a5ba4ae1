import { defineConfig } from 'tsdown'

export default defineConfig({
  // One entry per subpath export. The schemas (and zod) are reached only through
  // `@service-sdk/core/schemas`: index.js and internal.js do not import them, so a bundle that
  // takes the errors, the codec or the transport from core has no zod in it. The open client's
  // browser entry relies on this (packages/open/test/browser-size.test.ts).
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    internal: 'src/internal.ts',
    'schemas/index': 'src/schemas/index.ts',
    otel: 'src/tracing/otel.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'neutral',
  target: 'es2023',
  publint: true,
  attw: { profile: 'node16' },
})
