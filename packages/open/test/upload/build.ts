import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')

/** Tests of the built browser bundle: rebuild it when src/ is newer. */
export function ensureBuild(): void {
  const built = join(root, 'dist', 'browser.js')
  const newest = (dir: string): number =>
    Math.max(
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    )
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(root, 'src'))) return
  const run = spawnSync('pnpm', ['exec', 'tsdown'], { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) throw new Error('building @service-sdk/open failed: run `pnpm build`')
}
