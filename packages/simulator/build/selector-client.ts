/**
 * Bundles the selector page's browser code (src/selector/browser/, entry main.ts) into the one
 * classic script the page loads. The build (tsdown.config.ts) writes it to dist/selector-client.js;
 * run from its TypeScript source (the workspace's tests), the simulator calls this on first use
 * instead (src/selector/client-script.ts), so the page never runs a stale build.
 */
import { fileURLToPath } from 'node:url'
import { rolldown } from 'rolldown'

export const SELECTOR_CLIENT_FILE = 'selector-client.js'

export async function bundleSelectorClient(): Promise<string> {
  const bundle = await rolldown({
    input: fileURLToPath(new URL('../src/selector/browser/main.ts', import.meta.url)),
    platform: 'browser',
    // The page's browsers: anything with ES2022 (class fields, top-level await are not used).
    transform: { target: 'es2022' },
  })
  try {
    const { output } = await bundle.generate({ format: 'iife' })
    const [chunk] = output
    return chunk.code
  } finally {
    await bundle.close()
  }
}
