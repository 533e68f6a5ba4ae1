import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Packed {
  name: string
  tarball: string
  /** Paths inside the tarball (`package/...`). */
  files: string[]
}

const packages = join(import.meta.dirname, '..', '..', 'packages')

/** The published (non-private) packages of the workspace. */
export function publishedPackages(): { name: string; dir: string }[] {
  return readdirSync(packages)
    .map((folder) => join(packages, folder))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({ name: manifest.name as string, dir }))
}

/**
 * `pnpm pack` each published package (or those named in `only`) into `destination`, as `pnpm publish` would pack it
 * (workspace ranges replaced by versions, the root .pnpmfile.cjs's beforePacking applied).
 */
export function packAll(destination: string, only?: string[]): Packed[] {
  mkdirSync(destination, { recursive: true })
  const chosen = publishedPackages().filter(({ name }) => !only || only.includes(name))
  return chosen.map(({ name, dir }) => {
    const out = execFileSync('pnpm', ['pack', '--json', '--pack-destination', destination], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const report = JSON.parse(out) as { filename: string; files: { path: string }[] }
    return { name, tarball: report.filename, files: report.files.map((f) => `package/${f.path}`) }
  })
}

/** `npm <args>` in `cwd`, quietly; a failure throws with npm's output. */
export function npm(args: string[], cwd: string): void {
  try {
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: 'pipe' })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`npm ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}
