import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { requiredInCi } from './required.ts'

export interface OlderNode {
  /** Path of the executable. */
  path: string
  /** Its `process.versions.node`, e.g. `20.20.2`. */
  version: string
}

/**
 * A `node` older than 22 outside the workspace (the machine's own, `/usr/bin/node` or another on
 * the PATH), to run built packages on the oldest Node they claim; or a loud skip (a failure under CI).
 */
export function olderNodeOrSkip(): OlderNode | undefined {
  const onPath = execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n').filter(Boolean)
  for (const path of new Set(['/usr/bin/node', ...onPath])) {
    if (!existsSync(path)) continue
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
    if (Number(version.split('.')[0]) < 22) return { path, version }
  }
  requiredInCi('A Node older than 22', 'no such `node` at /usr/bin/node or on the PATH')
  return undefined
}
