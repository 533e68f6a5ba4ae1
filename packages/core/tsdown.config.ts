import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: ['src/index.ts', 'src/testing/index.ts', 'src/internal.ts', 'src/otel.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'neutral',
  target: 'es2023',
  // Bundled: openapi-fetch ships ESM with a CommonJS default export, which CommonJS interop reads
  // as the whole module (`default is not a function`); inlined, both builds call it directly.
  deps: { alwaysBundle: ['openapi-fetch'] },
  publint: true,
  attw: { profile: 'node16' },
})
