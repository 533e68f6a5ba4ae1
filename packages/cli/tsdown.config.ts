import { defineConfig } from 'tsdown'

export default defineConfig({
  // bin.ts checks the Node version, then loads main.ts (a chunk of its own).
  entry: ['src/bin.ts', 'src/main.ts'],
  format: ['esm'],
  dts: false,
  platform: 'node',
  fixedExtension: false,
  target: 'node22',
  publint: true,
})
