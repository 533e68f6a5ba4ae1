import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { extractSnippets, type Snippet } from './extract.ts'

// The README code blocks both test files check: which READMEs, the file each block is saved as,
// and what a run gets around it.

export const root = join(import.meta.dirname, '../..')

export const readmes = [
  'README.md',
  ...readdirSync(join(root, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((p) => readdirSync(join(root, p, '..')).includes('README.md')),
]

export const snippets: Snippet[] = readmes.flatMap((readme) => extractSnippets(join(root, readme), readme))

/**
 * The file a block is saved as, as the root README tells a user to: a `js` block as `.mjs`
 * (`node file.mjs`), a `ts` block as `.mts` (`node --experimental-strip-types file.mts`), a `tsx`
 * block as `.tsx` (for a bundler; type-checked only). The extensions make each an ES module in
 * any project.
 */
export const fileOf = (s: Snippet) =>
  `${s.readme === 'README.md' ? 'root' : s.readme.split('/')[1]}-L${s.line}.${{ ts: 'mts', tsx: 'tsx', js: 'mjs' }[s.lang]}`

export const nameOf = (s: Snippet) => `${s.readme}:${s.line}`

/** The Node arguments that run a block's file: the one command its README states. */
export const nodeArgs = (s: Snippet, file: string): string[] =>
  s.lang === 'ts' ? ['--experimental-strip-types', file] : [file]

/** Files the blocks upload, created in each run's working directory. */
export const FIXTURES = ['brochure.pdf', 'clips/launch video.mp4', 'big.mov', 'cover.png', 'intro.mp4']
