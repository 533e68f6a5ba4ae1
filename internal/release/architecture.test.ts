// ARCHITECTURE.md is a map: short enough to read in ten minutes, and true. This checks what can
// be checked: its size, that every path it cites exists, and that every code name it cites is
// defined somewhere in the sources.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const map = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8')
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
)

/** Backticked words of the map, outside fenced blocks. */
const cited = [...map.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)
const looksLikePath = (word: string) =>
  /^[\w.@-]+(\/[\w.@*-]+)*\/?$/.test(word) && word.includes('/') && /(\.\w+|\/)$/.test(word)

/** A cited path exists from the root, under packages/, or as the end of a tracked path. */
function exists(path: string): boolean {
  const bare = path.replace(/\/$/, '')
  if (bare.includes('*')) {
    const glob = new RegExp(`^${bare.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]+')}$`)
    return tracked.some((file) => glob.test(file))
  }
  for (const candidate of [bare, `packages/${bare}`]) {
    if (existsSync(join(root, candidate))) return true
  }
  return (
    tracked.some((file) => file.endsWith(`/${bare}`)) ||
    [...folders].some((folder) => folder.endsWith(`/${bare}`))
  )
}

describe('ARCHITECTURE.md', () => {
  test('is a map, not a history: at most 15 KB', () => {
    expect(Buffer.byteLength(map)).toBeLessThanOrEqual(15 * 1024)
  })

  test('cites only paths that exist', () => {
    const paths = cited.filter(looksLikePath)
    expect(paths.length).toBeGreaterThan(40)
    expect(paths.filter((path) => !exists(path))).toEqual([])
  })

  test('links only to files that exist', () => {
    const links = [...map.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^https?:/.test(l))
    expect(links.length).toBeGreaterThan(3)
    expect(links.filter((link) => !existsSync(join(root, link)))).toEqual([])
  })

  test('names only code that exists', () => {
    // camelCase and PascalCase names with an inner capital: functions, classes, types, options.
    const names = [...new Set(cited.filter((word) => /^[A-Za-z][a-z0-9]+[A-Z]\w*$/.test(word)))]
    expect(names.length).toBeGreaterThan(15)
    const sources = tracked
      // The sources, and Biome's configuration for the lint rules it names.
      .filter((file) => /^(packages|apps)\/[^/]+\/src\/.*\.tsx?$/.test(file) || file === 'biome.json')
      .map((file) => readFileSync(join(root, file), 'utf8'))
      .join('\n')
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(sources))).toEqual([])
  })
})
