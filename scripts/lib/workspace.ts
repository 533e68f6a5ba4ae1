import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '..', '..')

export interface PublishedPackage {
  name: string
  /** Folder relative to the repository root, e.g. `packages/open`. */
  dir: string
  version: string
}

/** The workspace's published (non-private) packages: the folders of packages/. */
export function publishedPackages(base = root): PublishedPackage[] {
  return readdirSync(join(base, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = `packages/${entry.name}`
      const manifest = JSON.parse(readFileSync(join(base, dir, 'package.json'), 'utf8'))
      return {
        name: manifest.name as string,
        dir,
        version: manifest.version as string,
        private: manifest.private,
      }
    })
    .filter((p) => !p.private)
    .map(({ name, dir, version }) => ({ name, dir, version }))
}

export interface Changeset {
  file: string
  /** Package name -> bump. */
  releases: Record<string, 'major' | 'minor' | 'patch'>
  summary: string
}

/** The pending changesets in `.changeset/` (front matter: `"pkg": bump` lines). */
export function pendingChangesets(base = root): Changeset[] {
  const dir = join(base, '.changeset')
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8')
      const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)
      if (!match) throw new Error(`.changeset/${file} has no front matter`)
      const releases: Changeset['releases'] = {}
      for (const [, name, bump] of (match[1] ?? '').matchAll(
        /^["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/gm,
      ))
        releases[name as string] = bump as 'major' | 'minor' | 'patch'
      return { file, releases, summary: (match[2] ?? '').trim() }
    })
}
