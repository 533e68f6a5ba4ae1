import { readFileSync } from 'node:fs'
import { stripTypeScriptTypes } from 'node:module'
import { defineConfig } from 'tsdown'

// The console page's script and style (src/console/assets.ts), written into the built code: a
// bundle of the package then carries them, with no file to copy or find beside it.
const consoleFile = (name: string) => readFileSync(new URL(`./src/console/${name}`, import.meta.url), 'utf8')
const INBOX_CONSOLE_SCRIPT = JSON.stringify(stripTypeScriptTypes(consoleFile('browser.ts')))
const INBOX_CONSOLE_STYLE = JSON.stringify(consoleFile('console.css'))

export default defineConfig([
  {
    // One entry per subpath export (src/*.ts): adapters and the test double stay out of the main bundle.
    entry: [
      'src/index.ts',
      'src/console.ts',
      'src/express.ts',
      'src/fastify.ts',
      'src/hono.ts',
      'src/koa.ts',
      'src/next.ts',
      'src/node.ts',
      'src/otel.ts',
      'src/testing.ts',
      'src/worker-cli.ts',
    ],
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    // .js / .d.ts for ESM (the package is type: module), as the exports map says.
    fixedExtension: false,
    target: 'es2023',
    // The SQLite store names its built thread (src/stores/sqlite/sqlite-channel.ts, `newThread`): the
    // built files never mention a .ts source, and the dead source-mode branch is dropped.
    define: { SQLITE_THREAD_BUILT: 'true', INBOX_CONSOLE_SCRIPT, INBOX_CONSOLE_STYLE },
    minify: 'dce-only',
    publint: true,
    attw: { profile: 'node16' },
  },
  {
    // The SQLite store's worker thread, started by URL (src/stores/sqlite/sqlite-channel.ts): one ESM
    // file with the engine inlined and nothing imported but node: modules, so it runs wherever
    // it is copied (a bundler that emits it as an asset), and from the CommonJS build too.
    // `.mjs`: ESM whatever the nearest package.json says (Next.js copies it under `.next/`,
    // whose package.json says commonjs).
    entry: { 'sqlite-thread': 'src/stores/sqlite/sqlite-thread.ts' },
    outDir: 'dist/stores',
    clean: false,
    format: ['esm'],
    dts: false,
    platform: 'node',
    fixedExtension: true,
    target: 'es2023',
  },
])
