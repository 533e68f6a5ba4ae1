import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

const root = join(import.meta.dirname, '..')

/** The page imports the package's built files: rebuild them when src/ is newer. */
function ensureBuild(): void {
  const built = join(root, 'dist', 'index.js')
  const newest = (dir: string): number =>
    Math.max(
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    )
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(root, 'src'))) return
  const run = spawnSync('pnpm', ['exec', 'tsdown'], { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) throw new Error('building @service-sdk/react failed: run `pnpm build`')
}

/**
 * Builds test/page with Vite and the React plugin into a temporary folder, as an application
 * would: the workspace packages through their built files and `browser` conditions. React's
 * development build, so StrictMode runs effects twice as it does while developing.
 */
export async function buildPage(): Promise<string> {
  ensureBuild()
  const outDir = mkdtempSync(join(tmpdir(), 'service-sdk-react-page-'))
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'page'),
    mode: 'development',
    logLevel: 'error',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
    // The page lives inside the package it tests: point its own name at the built entry.
    resolve: { alias: { '@service-sdk/react': join(root, 'dist', 'index.js') } },
    build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
  })
  return outDir
}
