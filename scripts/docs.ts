// `pnpm run docs`: the API reference of every published package (TypeDoc, from the code's doc
// comments) and the spec rendered as HTML (Redocly, webhooks included), under docs/site. Fails on
// any TypeDoc warning (an undocumented export included) and on any link to a missing file.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const site = join(root, 'docs', 'site')
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
/** Runs a step with its output shown; a failing step ends the build with its exit code. */
function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: root, stdio: 'inherit' })
  } catch (error) {
    console.error(`docs: ${relative(root, command)} ${args[0] ?? ''} failed (see above)`)
    process.exit((error as { status?: number }).status || 1)
  }
}

rmSync(site, { recursive: true, force: true })
run(bin('typedoc'), [])
run(bin('redocly'), [
  'build-docs',
  'spec/openapi.yaml',
  '--inlineBundle',
  '--output',
  'docs/site/spec/index.html',
  '--title',
  'The service interface (OpenAPI)',
])
writeFileSync(
  join(site, 'index.html'),
  `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>service-sdk docs</title></head>
<body>
<h1>service-sdk documentation</h1>
<ul>
<li><a href="api/index.html">API reference</a>: every published package, from its doc comments</li>
<li><a href="spec/index.html">The service interface</a>: <code>spec/openapi.yaml</code> rendered, webhooks included</li>
</ul>
</body>
</html>
`,
)

const broken = brokenLinks(site)
if (broken.length > 0) {
  console.error(`docs: ${broken.length} link(s) to missing files:\n${broken.join('\n')}`)
  process.exit(1)
}
console.log(`docs: built ${relative(root, site)} (API reference and spec), every local link resolves`)

/** Relative href/src targets that name a file the site lacks. */
function brokenLinks(dir: string): string[] {
  const found: string[] = []
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8')
    for (const [, target] of html.matchAll(/\s(?:href|src)="([^"#?]+)[^"]*"/g)) {
      // Absolute URLs leave the site. Root-absolute targets are the rendered spec's menu, routes of
      // its client-side router, not files; the site's own links (TypeDoc's and the index's) are relative.
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue
      const path = resolve(dirname(file), target)
      const candidate = target.endsWith('/') ? join(path, 'index.html') : path
      if (!existsSync(candidate)) found.push(`${relative(site, file)} -> ${target}`)
    }
  }
  return found
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name))
}
