import { fileURLToPath } from 'node:url'
import { defineConfig } from 'tsdown'

/**
 * The browser build reads sources and sends requests the browser's way: the upload engine's
 * platform module (Node: node:fs, node:http) is swapped for the browser one, so no `node:` module
 * is reachable from dist/browser.js.
 */
const browserRuntime = {
  name: 'open:browser-runtime',
  resolveId(source: string, importer: string | undefined) {
    if (source === './platform/runtime.ts' && importer?.endsWith('/src/upload/uploader.ts')) {
      return fileURLToPath(new URL('./src/upload/platform/runtime.browser.ts', import.meta.url))
    }
    return undefined
  },
}

export default defineConfig([
  {
    // `proxy`: the server side of browser uploads (`@service-sdk/open/proxy`), Node/edge only.
    entry: { index: 'src/index.ts', proxy: 'src/proxy/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    // .js / .d.ts for ESM (the package is type: module), as the exports map says.
    fixedExtension: false,
    target: 'es2023',
    publint: true,
    attw: { profile: 'node16' },
  },
  {
    // The `browser` export condition: bundlers resolve ali-oss to its own browser build.
    entry: { browser: 'src/index.ts' },
    format: 'esm',
    dts: false,
    platform: 'browser',
    fixedExtension: false,
    target: 'es2022',
    clean: false,
    plugins: [browserRuntime],
  },
])
