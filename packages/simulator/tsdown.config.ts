import { writeFile } from 'node:fs/promises'
import { defineConfig } from 'tsdown'
import { bundleSelectorClient, SELECTOR_CLIENT_FILE } from './build/selector-client.ts'

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/vitest.ts', 'src/msw.ts', 'src/playwright.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  fixedExtension: false,
  target: 'node22',
  // import.meta.url in the CommonJS build: the selector page's script is read from beside it.
  shims: true,
  publint: true,
  attw: { profile: 'node16' },
  hooks: {
    // The selector page's browser script, bundled by the same function the source uses.
    'build:done': async (ctx) => {
      await writeFile(`${ctx.options.outDir}/${SELECTOR_CLIENT_FILE}`, await bundleSelectorClient())
    },
  },
})
