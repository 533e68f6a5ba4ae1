// The package's surface is what its README documents: every name an entry point exports (the
// root and each subpath of package.json's "exports") is named in the README's code (a code span or
// block), so a name exported by accident, or one nobody explained, fails here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..')
const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { '@service-sdk/source'?: string }>
}

/** Each entry point's source file, by subpath (`.`, `./node`...). */
const entries = Object.entries(manifest.exports).flatMap(([subpath, target]): [string, string][] => {
  const source = typeof target === 'object' ? target['@service-sdk/source'] : undefined
  return source ? [[subpath, source]] : []
})

/** The names a module exports, read from its statements; `export *` is refused (it hides them). */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const names: string[] = []
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause))
        throw new Error(`${file}: \`export *\` hides what it exports; name each export`)
      for (const element of statement.exportClause.elements) names.push(element.name.text)
    } else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some(isExport)) {
      if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations)
          names.push(declaration.name.getText(source))
      else if ('name' in statement && statement.name) names.push((statement.name as ts.Identifier).text)
    }
  }
  return names
}

const isExport = (modifier: ts.ModifierLike) => modifier.kind === ts.SyntaxKind.ExportKeyword

/** The README's code: its fenced blocks and its code spans, where a documented name appears. */
function readmeCode(): string {
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
  const blocks = readme.match(/^```[^\n]*\n[\s\S]*?^```/gm) ?? []
  const prose = blocks.reduce((text, block) => text.replace(block, ''), readme)
  return [...blocks, ...(prose.match(/`[^`]+`/g) ?? [])].join('\n')
}

describe('the README documents every exported name', () => {
  const code = readmeCode()
  const documented = (name: string) =>
    new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(code)

  it('reads the entries and their names', () => {
    expect(entries.map(([subpath]) => subpath)).toContain('.')
    const root = exportedNames(join(pkg, entries.find(([subpath]) => subpath === '.')![1]))
    expect(root).toContain('createWebhookReceiver')
    expect(root.length).toBeGreaterThan(50)
    expect(documented('createWebhookReceiver')).toBe(true)
    expect(documented('createWebhook')).toBe(false)
  })

  it.each(entries)('%s', (_subpath, file) => {
    const missing = exportedNames(join(pkg, file)).filter((name) => !documented(name))
    expect(missing, 'exported, named nowhere in the README: document them, or stop exporting them').toEqual(
      [],
    )
  })
})
