import { readFileSync } from 'node:fs'

/** A fenced code block of a README that the snippets check compiles (and maybe runs). */
export interface Snippet {
  /** The README, relative to the repository root. */
  readme: string
  /** 1-based line of the opening fence. */
  line: number
  lang: 'ts' | 'tsx' | 'js'
  code: string
  /** From the marker comment: only type-checked, never run, with the reason given. */
  typecheckOnly?: string
}

const CHECKED = new Set(['ts', 'tsx', 'js'])
const FENCE = /^(\s*)(`{3,})\s*([\w-]*)\s*$/
const MARKER = /^<!--\s*snippet:\s*(.*?)\s*-->$/
const TYPECHECK_ONLY = /^typecheck-only \((.+)\)$/

/**
 * The ```ts, ```tsx and ```js blocks of a Markdown file, indented ones (in lists) included. The
 * line before a fence may hold `<!-- snippet: typecheck-only (reason) -->`; any other marker
 * text is an error, so a typo cannot silently turn a check off.
 */
export function extractSnippets(path: string, readme: string): Snippet[] {
  const lines = readFileSync(path, 'utf8').split('\n')
  const snippets: Snippet[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '')
    if (!open) continue
    const [, indent = '', ticks = '', lang = ''] = open
    let end = i + 1
    while (end < lines.length && (lines[end] ?? '').trim() !== ticks) end++
    if (end === lines.length) throw new Error(`${readme}:${i + 1}: unclosed code block`)
    const marker = MARKER.exec((lines[i - 1] ?? '').trim())
    if (CHECKED.has(lang)) {
      const code = lines
        .slice(i + 1, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
        .join('\n')
      const snippet: Snippet = { readme, line: i + 1, lang: lang as Snippet['lang'], code: `${code}\n` }
      if (marker) {
        const reason = TYPECHECK_ONLY.exec(marker[1] ?? '')?.[1]
        if (!reason) throw new Error(`${readme}:${i}: unknown snippet marker "${marker[1]}"`)
        snippet.typecheckOnly = reason
      }
      snippets.push(snippet)
    } else if (marker) {
      throw new Error(
        `${readme}:${i}: a snippet marker before a ${lang || 'plain'} block, which is not checked`,
      )
    }
    i = end
  }
  return snippets
}

/** Blocks marked `typecheck-only (browser)` are checked with the DOM library and without Node's types. */
export const isBrowser = (s: Snippet) => s.typecheckOnly === 'browser'
