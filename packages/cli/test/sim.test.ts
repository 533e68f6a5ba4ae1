import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { finished, freshHome, lineMatching, run, start } from './cli.ts'

const home = freshHome()
afterAll(() => home.remove())
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The ```js block under a README's "## Quick start" (plain JavaScript, run as quickstart.mjs). */
function quickStart(readme: string): string {
  const text = readFileSync(join(ROOT, readme), 'utf8')
  const section = text.slice(text.indexOf('## Quick start'))
  const block = /```js\n([\s\S]*?)```/.exec(section)?.[1]
  if (!block) throw new Error(`No quick start in ${readme}`)
  return block
}

/** Every `process.env.X` the READMEs of the published packages read. */
function variablesRead(): string[] {
  const names = new Set<string>()
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    let text = ''
    try {
      text = readFileSync(join(ROOT, 'packages', dir, 'README.md'), 'utf8')
    } catch {
      continue
    }
    // DATABASE_URL is the user's own PostgreSQL, PORT the user's own server's: not something the
    // simulator provides.
    for (const [, name] of text.matchAll(/process\.env\.([A-Z_]+)/g))
      if (name !== 'DATABASE_URL' && name !== 'PORT') names.add(name as string)
  }
  return [...names].sort()
}

describe('service sim', () => {
  it('--env prints the variables every quick start reads, with pinned credentials, and a quick start runs on them', async () => {
    const sim = start(
      [
        'sim',
        '--port',
        '0',
        '--oss-port',
        '0',
        '--env',
        '--team-api-key',
        'team_sk_pinned_for_ci',
        '--open-token',
        'ot_pinned_for_ci',
        '--api-key',
        'sk_pinned_for_ci',
      ],
      home.env,
    )
    const done = finished(sim)
    const env: Record<string, string> = {}
    await lineMatching(sim, (line) => {
      const [, name, value] = /^export ([A-Z_]+)=(.*)$/.exec(line) ?? []
      if (name) env[name] = value as string
      return name === 'WEBHOOK_TOKEN'
    })
    for (const name of variablesRead()) expect([name, env[name] !== undefined]).toEqual([name, true])
    expect(env).toMatchObject({
      SERVICE_TEAM_API_KEY: 'team_sk_pinned_for_ci',
      SERVICE_OPEN_TOKEN: 'ot_pinned_for_ci',
      SERVICE_OPEN_TOKEN_TYPE: 'Bearer',
      SERVICE_API_KEY: 'sk_pinned_for_ci',
    })

    // The team README's quick start, unchanged, on those variables.
    const script = join(fileURLToPath(new URL('.', import.meta.url)), `.quickstart-team-${process.pid}.mjs`)
    writeFileSync(
      script,
      `${quickStart('packages/team/README.md')}\nconsole.log(JSON.stringify({ members: members.length, iframe: iframe.html.slice(0, 7) }))\n`,
    )
    try {
      const result = await finished(spawn(process.execPath, [script], { env: { ...home.env, ...env } }))
      expect(result.stderr).toBe('')
      // The quick start prints its own line first; ours is the last.
      expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
        members: 3,
        iframe: '<iframe',
      })
    } finally {
      rmSync(script, { force: true })
    }

    // The CLI itself on the same variables.
    const members = await run(['members', 'list', '--json'], { ...home.env, ...env })
    // The quick start created hedy@acme.com and invited linus@acme.com.
    expect(JSON.parse(members.stdout).map((m: { email: string }) => m.email)).toEqual(
      expect.arrayContaining(['hedy@acme.com', 'linus@acme.com']),
    )
    sim.kill('SIGINT')
    expect((await done).code).toBe(0)
  })

  it('--save-profile points the other commands at it; a port in use is one clear line', async () => {
    const sim = start(
      ['sim', '--port', '0', '--oss-port', '0', '--save-profile', 'local', '--json'],
      home.env,
    )
    const done = finished(sim)
    const { urls } = JSON.parse(await lineMatching(sim, (line) => line.startsWith('{'))) as {
      urls: { base: string }
    }
    const spaces = await run(['spaces', '--profile', 'local', '--json'], home.env)
    expect(spaces.code).toBe(0)
    expect(JSON.parse(spaces.stdout)).toHaveLength(6)
    const port = new URL(urls.base).port
    const clash = await run(['sim', '--port', port, '--oss-port', '0'], home.env)
    expect(clash.code).toBe(1)
    expect(clash.stderr).toMatch(/^Error: Port \d+ or \d+ is in use\nHint: /)
    sim.kill('SIGTERM')
    expect((await done).code).toBe(0)
  })
})
