import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/vitest.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  fixedExtension: false,
  target: 'node22',
  publint: true,
  attw: { profile: 'node16' },
})
