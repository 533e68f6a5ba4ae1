import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freshHome, run } from './cli.ts'

// The command is `service-sdk`. A doc, example or help text that runs `service ...` runs Debian's
// init-script tool instead (`pnpm exec service sim --env` wrote an empty .sim.env), and a bare
// `npx service-sdk` where the CLI is not installed fetches an unrelated package of that name.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const COMMANDS = 'sim|upload|listen|trigger|config|spaces|members|subscribe|unsubscribe|events|doctor'
const BARE = new RegExp(`(^|[\\s\`'"(])((pnpm|npm) exec |npx )?service (${COMMANDS})\\b`, 'm')

/** The docs and examples: every README and docs/ page, and the examples' own sources. */
function files(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (['node_modules', '.git', 'dist', '.next', '.changeset', '.turbo', 'site'].includes(name)) continue
    const path = join(dir, name)
    const rel = relative(ROOT, path)
    if (statSync(path).isDirectory()) files(path, found)
    else if (name.endsWith('.md') || (rel.startsWith('examples/') && /\.(ts|tsx|js|mjs|json)$/.test(name)))
      found.push(path)
  }
  return found
}

describe('every place that names the command line', () => {
  const docs = files(ROOT)

  it('runs service-sdk, never a bare `service <command>`', () => {
    expect(docs.length).toBeGreaterThan(20)
    const bare = docs.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => BARE.test(line))
        .map((line) => `${relative(ROOT, path)}: ${line.trim()}`),
    )
    expect(bare).toEqual([])
  })

  it('never tells npx to run service-sdk without --no (that would fetch another package)', () => {
    const risky = docs.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => /\bnpx (?!--no )(-\S+ )*service-sdk\b/.test(line))
        .map((line) => `${relative(ROOT, path)}: ${line.trim()}`),
    )
    expect(risky).toEqual([])
  })

  it('each example that runs `pnpm exec service-sdk` has the CLI as a dependency of its own', () => {
    const examples = readdirSync(join(ROOT, 'examples')).filter((e) =>
      readFileSync(join(ROOT, 'examples', e, 'README.md'), 'utf8').includes('pnpm exec service-sdk'),
    )
    expect(examples.length).toBeGreaterThanOrEqual(3)
    for (const example of examples) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'examples', example, 'package.json'), 'utf8'))
      expect([example, { ...manifest.dependencies, ...manifest.devDependencies }]).toEqual([
        example,
        expect.objectContaining({ '@service-sdk/cli': expect.any(String) }),
      ])
    }
  })

  it('--help of every command shows service-sdk', async () => {
    const home = freshHome()
    try {
      const commands = [
        [],
        ...COMMANDS.split('|').map((c) => [c]),
        ['subscribe', 'events'],
        ['members', 'list'],
      ]
      for (const command of commands) {
        const help = await run([...command, '--help'], home.env)
        expect([command, help.stdout]).toEqual([command, expect.stringContaining('service-sdk')])
        expect([command, BARE.test(help.stdout)]).toEqual([command, false])
      }
    } finally {
      home.remove()
    }
  })
})
