import { defineConfig } from 'vite'

// `pnpm --filter @service-sdk/demo-web dev` serves the page with hot reload and forwards the API
// to a running demo server (DEMO_API_URL, default http://localhost:5173: run `pnpm demo` first).
const api = process.env.DEMO_API_URL ?? 'http://localhost:5173'

export default defineConfig({
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5174,
    strictPort: true,
    proxy: {
      // The server accepts state changes only from its own origin: present the page as such.
      '/api': { target: api, changeOrigin: true, headers: { origin: new URL(api).origin } },
    },
  },
})
