// `pnpm run docs`: the API reference of every published package (TypeDoc, from the code's doc
// comments) and the spec rendered as HTML (Redocly, webhooks included), under docs/site. Fails on
// any TypeDoc warning (an undocumented export included) and on any link to a missing file. Works
// in any checkout: source links come from the packages' `repository` (typedoc.config.mjs), not
// from a git remote. Output of the tools only when a step fails, or with `--verbose`.
// `--out <dir>`: build there instead (the demo builds the docs on the first visit of /docs).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { specForRendering } from './lib/spec-for-rendering.ts'

const root = resolve(import.meta.dirname, '..')
const outAt = process.argv.indexOf('--out')
const site =
  outAt > 0 && process.argv[outAt + 1]
    ? resolve(process.argv[outAt + 1] as string)
    : join(root, 'docs', 'site')
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
const verbose = process.argv.includes('--verbose')
/** Runs a step; its output is shown when it fails (or with --verbose), and ends the build with its exit code. */
function run(command: string, args: string[]): void {
  try {
    const out = execFileSync(command, args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    if (verbose) process.stdout.write(out)
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number; stdout?: string; stderr?: string }
    process.stderr.write(`${stdout ?? ''}${stderr ?? ''}`)
    console.error(`docs: ${relative(root, command)} ${args[0] ?? ''} failed (see above)`)
    process.exit(status || 1)
  }
}

const started = Date.now()
for (const built of ['api', 'spec', 'index.html']) rmSync(join(site, built), { recursive: true, force: true })
run(bin('typedoc'), ['--out', join(site, 'api')])
// Rendered from a lossless copy of the spec: the 19-digit example ids keep every digit.
const rendering = mkdtempSync(join(tmpdir(), 'service-sdk-spec-'))
try {
  writeFileSync(
    join(rendering, 'openapi.json'),
    specForRendering(readFileSync(join(root, 'spec', 'openapi.yaml'), 'utf8')),
  )
  run(bin('redocly'), [
    'build-docs',
    join(rendering, 'openapi.json'),
    '--inlineBundle',
    '--output',
    join(site, 'spec', 'index.html'),
    '--title',
    'The service interface (OpenAPI)',
  ])
} finally {
  rmSync(rendering, { recursive: true, force: true })
}
writeFileSync(join(site, 'index.html'), readFileSync(join(import.meta.dirname, 'docs-index.html'), 'utf8'))

const broken = brokenLinks(site)
if (broken.length > 0) {
  console.error(`docs: ${broken.length} link(s) to missing files:\n${broken.join('\n')}`)
  process.exit(1)
}
console.log(
  `docs: built ${relative(root, site)} (API reference and spec) in ${Math.round((Date.now() - started) / 1000)} s, every local link resolves`,
)

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
