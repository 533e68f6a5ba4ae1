// Finds the promises the READMEs make: every sentence with one of the words below. The ledger
// (docs/guarantees.md) must name each one, with the test that proves it or why it is not a promise.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const promiseWords = /\b(never|always|guarantee[sd]?|exactly once|once each)\b/i

export interface Sentence {
  readme: string
  line: number
  text: string
}

/** The README's prose as paragraphs (code blocks dropped), each with its first line number. */
function paragraphs(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = []
  let fence = false
  let current: { line: number; lines: string[] } | undefined
  const flush = () => {
    if (current) out.push({ line: current.line, text: current.lines.join(' ') })
    current = undefined
  }
  markdown.split('\n').forEach((raw, index) => {
    if (raw.trimStart().startsWith('```')) {
      fence = !fence
      flush()
      return
    }
    const line = raw.trim()
    if (fence || line === '' || line.startsWith('|') || line.startsWith('#')) {
      flush()
      // A table row or heading is a paragraph of its own.
      if (!fence && line !== '') out.push({ line: index + 1, text: line })
      return
    }
    if (/^([-*]|\d+\.)\s/.test(line)) flush()
    current ??= { line: index + 1, lines: [] }
    current.lines.push(line)
  })
  flush()
  return out
}

/** Every sentence of `readme` (a path from the repository root) that holds a promise word. */
export function promisesIn(root: string, readme: string): Sentence[] {
  const found: Sentence[] = []
  for (const paragraph of paragraphs(readFileSync(join(root, readme), 'utf8'))) {
    // Sentences end at ". " before a capital, a backtick or an opening bracket; good enough for prose.
    for (const text of paragraph.text.split(/(?<=[.!?])\s+(?=[A-Z`(*[])/)) {
      if (promiseWords.test(text)) found.push({ readme, line: paragraph.line, text: text.trim() })
    }
  }
  return found
}
