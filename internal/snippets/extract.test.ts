import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { extractSnippets } from './extract.ts'

const fence = '```'
const markdown = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'snippets-extract-')), 'README.md')
  writeFileSync(path, text)
  return path
}

test('finds ts, tsx and js blocks, indented ones dedented, with their markers; skips the others', () => {
  const path = markdown(
    [
      '# Title',
      `${fence}sh`,
      'pnpm add x',
      fence,
      `${fence}ts`,
      "import { a } from 'a'",
      fence,
      '- a list item:',
      '',
      `  ${fence}ts`,
      '  const x = 1',
      '    nested()',
      `  ${fence}`,
      '<!-- snippet: typecheck-only (browser) -->',
      `${fence}tsx`,
      'export const A = () => <a />',
      fence,
      `${fence}js`,
      'console.log(1)',
      fence,
      `${fence}html`,
      '<p>',
      fence,
    ].join('\n'),
  )
  expect(extractSnippets(path, 'README.md')).toEqual([
    { readme: 'README.md', line: 5, lang: 'ts', code: "import { a } from 'a'\n" },
    { readme: 'README.md', line: 10, lang: 'ts', code: 'const x = 1\n  nested()\n' },
    {
      readme: 'README.md',
      line: 15,
      lang: 'tsx',
      code: 'export const A = () => <a />\n',
      typecheckOnly: 'browser',
    },
    { readme: 'README.md', line: 18, lang: 'js', code: 'console.log(1)\n' },
  ])
})

test('a misspelt marker, a marker on an unchecked block and an unclosed block are errors', () => {
  const misspelt = markdown(`<!-- snippet: typecheck (browser) -->\n${fence}ts\nx\n${fence}\n`)
  expect(() => extractSnippets(misspelt, 'R.md')).toThrow('unknown snippet marker')
  const onShell = markdown(`<!-- snippet: typecheck-only (shell) -->\n${fence}sh\nx\n${fence}\n`)
  expect(() => extractSnippets(onShell, 'R.md')).toThrow('not checked')
  expect(() => extractSnippets(markdown(`${fence}ts\nx\n`), 'R.md')).toThrow('unclosed')
})
