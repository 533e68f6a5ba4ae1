// docs/guarantees.md lists every promise the READMEs make with the tests that prove it. This
// holds the ledger to the READMEs and to the tests: a promise without an entry, an entry for a
// sentence no README says any more, and a proof that names a missing file or test all fail here.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { promisesIn } from './lib/promises.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const ledgerPath = join(root, 'docs/guarantees.md')

/** The root README and every package's, app's and example's. */
const readmes = [
  'README.md',
  ...['packages', 'apps', 'examples'].flatMap((folder) =>
    readdirSync(join(root, folder))
      .map((name) => `${folder}/${name}/README.md`)
      .filter((path) => existsSync(join(root, path))),
  ),
]

interface Entry {
  readme: string
  quote: string
  proofs: { file: string; href: string; title: string }[]
  notAPromise: boolean
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim()

function ledger(): Entry[] {
  const entries: Entry[] = []
  let readme = ''
  for (const line of readFileSync(ledgerPath, 'utf8').split('\n')) {
    const heading = /^## (\S*README\.md)$/.exec(line)
    if (heading) readme = heading[1]!
    const entry = /^- “(.+?)” — (.+)$/.exec(line)
    if (!entry || !readme) continue
    const proofs = [...entry[2]!.matchAll(/\[([^\]]+)\]\(([^)]+)\) › “([^”]+)”/g)].map((m) => ({
      file: m[1]!,
      href: m[2]!,
      title: m[3]!,
    }))
    entries.push({
      readme,
      quote: squash(entry[1]!),
      proofs,
      notAPromise: entry[2]!.startsWith('not a promise:'),
    })
  }
  return entries
}

/** The titles of the tests a file declares (`it`, `test`, `test.runIf(...)`, ...). */
function titles(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const call = /\b(?:it|test)(?:\.\w+(?:\([^()]*\))?)*\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*?)\1/g
  return [...text.matchAll(call)].map((m) => squash(m[2]!.replace(/\\(.)/g, '$1')))
}

const entries = ledger()

describe('docs/guarantees.md', () => {
  test('names every promise the READMEs make', () => {
    const missing = readmes.flatMap((readme) =>
      promisesIn(root, readme)
        .filter((s) => !entries.some((e) => e.readme === readme && squash(s.text).includes(e.quote)))
        .map((s) => `${s.readme}:${s.line}: ${s.text}`),
    )
    expect(missing, 'README sentences with a promise word and no entry in docs/guarantees.md').toEqual([])
  })

  test('quotes only what the READMEs still say', () => {
    const stale = entries.filter(
      (e) => !promisesIn(root, e.readme).some((s) => squash(s.text).includes(e.quote)),
    )
    expect(stale.map((e) => `${e.readme}: “${e.quote}”`)).toEqual([])
  })

  test('proves each promise with a test, or says why it is not one', () => {
    const unproved = entries.filter((e) => e.proofs.length === 0 && !e.notAPromise)
    expect(unproved.map((e) => `${e.readme}: “${e.quote}”`)).toEqual([])
  })

  test('cites only test files and test titles that exist', () => {
    const broken: string[] = []
    for (const { proofs } of entries)
      for (const { file, href, title } of proofs) {
        if (href !== `../${file}`) broken.push(`${file}: its link goes to ${href}`)
        if (!existsSync(join(root, file))) broken.push(`${file}: no such file`)
        else if (!titles(file).some((t) => t.includes(squash(title))))
          broken.push(`${file}: no test “${title}”`)
      }
    expect(broken).toEqual([])
  })

  test('finds the promises (the extractor is not blind)', () => {
    const all = readmes.flatMap((readme) => promisesIn(root, readme))
    expect(all.length).toBeGreaterThan(80)
    expect(all.some((s) => s.text.includes('Saves are never doubled'))).toBe(true)
  })
})

describe('the simulator', () => {
  // Its README promises an independent implementation: it shares no code with the clients and
  // reads the spec itself, so that a misreading in one shows up in tests of the other.
  test("the simulator imports neither the clients nor core's schemas", () => {
    const forbidden =
      /from ['"]@service-sdk\/(open|team|selector|react|webhooks)(\/[^'"]*)?['"]|from ['"]@service-sdk\/core\/schemas['"]/
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory()
          ? sources(join(dir, d.name))
          : /\.tsx?$/.test(d.name) && !/\.test(-d)?\.tsx?$/.test(d.name)
            ? [join(dir, d.name)]
            : [],
      )
    const files = sources(join(root, 'packages/simulator/src'))
    expect(files.length).toBeGreaterThan(50)
    const offenders = files
      .filter((f) => forbidden.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(offenders).toEqual([])
    const manifest = JSON.parse(readFileSync(join(root, 'packages/simulator/package.json'), 'utf8'))
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
    expect(deps.filter((d) => /^@service-sdk\/(open|team|selector|react|webhooks)$/.test(d))).toEqual([])
  })
})
