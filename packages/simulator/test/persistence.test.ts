import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, test } from 'vitest'
import { defaultSeed, startSimulator } from '../src/index.ts'

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('state directory', () => {
  test('a restarted simulator keeps its credentials and the members created (objects: see oss directory-store tests)', async () => {
    const stateDir = tempDir()
    const first = await startSimulator({ stateDir })
    const auth = { authorization: `Bearer ${first.credentials.teamApiKey}` }
    const created = await fetch(`${first.urls.base}/api/team/members/create`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@acme.com' }),
    })
    expect(created.status).toBe(200)
    const credentials = first.credentials
    await first.stop()

    const second = await startSimulator({ stateDir })
    try {
      expect(second.credentials).toEqual(credentials)
      const list = await fetch(`${second.urls.base}/api/team/members`, { headers: auth })
      expect(await list.text()).toContain('kept@acme.com')
    } finally {
      await second.stop()
    }
  })
})

/** `service-sim` from source (Node 24 strips the types), as a user would start it. */
function startCli(args: string[]) {
  const cli = new URL('../src/cli.ts', import.meta.url).pathname
  const child = spawn(
    process.execPath,
    ['--conditions=@service-sdk/source', cli, '--port', '0', '--oss-port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const lines = createInterface({ input: child.stdout })
  return { child, lines }
}

describe('service-sim', () => {
  test('--json prints the URLs and credentials; a seed file sets the world; SIGTERM stops it', async () => {
    const seed = defaultSeed()
    seed.caller.apiKey = 'sk_from_seed_file'
    seed.teams[0] = {
      ...(seed.teams[0] as (typeof seed.teams)[0]),
      apiKey: 'team_sk_from_seed_file',
      name: 'Seeded Team',
    }
    const file = join(tempDir(), 'seed.json')
    writeFileSync(file, JSON.stringify(seed))

    const { child, lines } = startCli(['--json', '--seed', file])
    const line = await new Promise<string>((resolve) => lines.once('line', resolve))
    const info = JSON.parse(line) as {
      urls: { base: string }
      credentials: { teamApiKey: string; apiKey: string }
    }
    expect(info.credentials).toMatchObject({
      teamApiKey: 'team_sk_from_seed_file',
      apiKey: 'sk_from_seed_file',
    })
    const orgs = await fetch(`${info.urls.base}/api/team/members`, {
      headers: { authorization: 'Bearer team_sk_from_seed_file' },
    })
    expect(orgs.status).toBe(200)
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exit).toBe(0)
  })

  test('without --json it prints the SERVICE_* variables the quick starts read', async () => {
    const { child, lines } = startCli([])
    const text: string[] = []
    await new Promise<void>((resolve) => {
      lines.on('line', (l) => {
        text.push(l)
        if (l.startsWith('Ctrl-C')) resolve()
      })
    })
    const out = text.join('\n')
    expect(out).toMatch(/export SERVICE_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/m)
    expect(out).toMatch(/export SERVICE_OPEN_URL=http:\/\/127\.0\.0\.1:\d+$/m)
    expect(out).toMatch(/export SERVICE_APP_URL=http:\/\/127\.0\.0\.1:\d+$/m)
    expect(out).toMatch(/export SERVICE_TEAM_API_KEY=team_sk_\S+$/m)
    expect(out).toMatch(/export SERVICE_OPEN_TOKEN_TYPE=Bearer$/m)
    expect(out).toMatch(/export SERVICE_OPEN_TOKEN=ot_\S+$/m)
    expect(out).toMatch(/export SERVICE_API_KEY=sk_\S+$/m)
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill('SIGINT')
    expect(await exit).toBe(0)
  })
})
