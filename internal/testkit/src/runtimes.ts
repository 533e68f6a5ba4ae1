import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The oldest Node the SDK supports (every package's `engines`: `^22.13.0 || >=24`). */
export const OLDEST_NODE = '22.13.0'

/**
 * Installs Node runtimes from the registry's `node` package (which ships the binary) into `dir`,
 * each under its own name, and returns the path of each one's `node`.
 */
export function installNodes<Name extends string>(
  dir: string,
  versions: Record<Name, string>,
): Record<Name, string> {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-runtimes', private: true }))
  const specs = Object.entries(versions).map(([name, version]) => `${name}@npm:node@${version}`)
  try {
    execFileSync('npm', ['install', ...specs, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: 'pipe',
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`installing Node ${specs.join(', ')} failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
  return Object.fromEntries(
    Object.keys(versions).map((name) => [name, join(dir, 'node_modules', name, 'bin', 'node')]),
  ) as Record<Name, string>
}
