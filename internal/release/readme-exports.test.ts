// A client package's root exports what its README documents, nothing more: every name the root
// entry exports (values and types) is named in the README's code, in a code block or an inline
// `code` span. A name nobody documents is either missing from the README or does not belong on
// the root.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { moduleExports } from '@service-sdk/testkit'
import { describe, expect, test } from 'vitest'
import { root } from '../../scripts/lib/workspace.ts'

/** The text of a README's fenced code blocks and inline code spans. */
function codeOf(markdown: string): string {
  const blocks = [...markdown.matchAll(/^(`{3,})[^\n]*\n([\s\S]*?)^\1\s*$/gm)].map((m) => m[2])
  const prose = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
  const spans = [...prose.matchAll(/(`+)([^`][\s\S]*?)\1/g)].map((m) => m[2])
  return [...blocks, ...spans].join('\n')
}

describe.each(['team', 'open', 'selector', 'react'])('@service-sdk/%s', (pkg) => {
  test('every root export is named in the README', () => {
    const code = codeOf(readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8'))
    const names = moduleExports(join(root, 'packages', pkg, 'src', 'index.ts'))
    expect(names.length).toBeGreaterThan(0)
    expect(names.filter((name) => !new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(code))).toEqual([])
  })
})

test('a name counts in a code block or a code span, not in prose', () => {
  const code = codeOf(
    'Upload a file.\n\n```ts\nconst a: UploadOptions = {}\n```\n\nSee `Upload` and ``x`y``.\n',
  )
  expect(code).toContain('UploadOptions')
  expect(code).toContain('Upload')
  expect(code).not.toContain('a file')
  expect(codeOf('Upload proxy, uploads.')).toBe('')
})
