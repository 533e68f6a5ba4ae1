import { defineConfig } from 'tsdown'

export default defineConfig({
  // One entry per subpath export: adapters and the test double stay out of the main bundle.
  entry: [
    'src/index.ts',
    'src/express.ts',
    'src/fastify.ts',
    'src/hono.ts',
    'src/koa.ts',
    'src/next.ts',
    'src/node.ts',
    'src/testing.ts',
    'src/worker-cli.ts',
    // The SQLite store's worker thread, loaded by path (see src/stores/sqlite-channel.ts).
    'src/stores/sqlite-thread.ts',
  ],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  // .js / .d.ts for ESM (the package is type: module), as the exports map says.
  fixedExtension: false,
  target: 'es2023',
  publint: true,
  attw: { profile: 'node16' },
})
