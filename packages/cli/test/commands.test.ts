import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FOLDERS, MEMBERS, SPACES } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { afterAll, describe, expect, it } from 'vitest'
import { freshHome, type Run, run, secretsOf } from './cli.ts'

const sim = useSimulator()
const home = freshHome()
afterAll(() => home.remove())
const outputs: Run[] = []
/** `service` with the simulator's SERVICE_* variables, as a user who ran `eval "$(service sim --env)"`. */
const service = async (...args: string[]) => {
  const result = await run(args, { ...home.env, ...sim.env })
  outputs.push(result)
  return result
}
const json = (result: Run) => JSON.parse(result.stdout) as unknown

describe('service, configured from SERVICE_* variables, against the simulator', () => {
  it('members list | create | invite | impersonate, as tables and as JSON', async () => {
    const list = await service('members', 'list', '--json')
    expect(list.code).toBe(0)
    expect((json(list) as Array<{ email: string }>).map((m) => m.email)).toContain(MEMBERS.grace.email)
    const table = await service('members', 'list')
    expect(table.stdout).toMatch(/│ 1673603133161799681 │ Grace Hopper/)

    const created = await service('members', 'create', 'hedy@acme.com', '--json')
    expect(created.code).toBe(0)
    expect(json(created)).toMatchObject([{ email: 'hedy@acme.com', teamId: SPACES.acme }])
    const invited = await service('members', 'invite', MEMBERS.linus.email, '--json')
    expect(json(invited)).toMatchObject([{ id: MEMBERS.linus.id }])

    const login = await service(
      'members',
      'impersonate',
      MEMBERS.grace.id,
      '--expiry-hours',
      '2',
      '--callback-url',
      '/library',
      '--json',
    )
    expect(json(login)).toMatchObject({ expiryHours: 2, callbackUrl: '/library' })
    expect((json(login) as { loginUrl: string }).loginUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/auth\/impersonation-login\?/,
    )
  })

  it('a refusal of the service is one line and a hint, exit 1; JSON on stderr with --json', async () => {
    const conflict = await service('members', 'create', MEMBERS.grace.email)
    expect(conflict.code).toBe(1)
    expect(conflict.stderr.trim().split('\n')[0]).toMatch(/^Error: .*grace@acme\.com/)
    const refused = await service('members', 'impersonate', MEMBERS.contractor.id, '--json')
    expect(refused.code).toBe(1)
    const error = JSON.parse(refused.stderr) as { error: { code: string; message: string; hint?: string } }
    expect(error.error.message).toMatch(/gmail\.com/)
    expect(error.error.hint).toMatch(/whitelist/)
    expect(refused.stdout).toBe('')
  })

  it('spaces: role, validity and whether uploads are allowed now', async () => {
    const spaces = json(await service('spaces', '--json')) as Array<{
      id: string
      role: string
      writable: boolean
    }>
    const writable = Object.fromEntries(spaces.map((s) => [s.id, s.writable]))
    expect(writable).toEqual({
      '1001': true,
      '1002': true,
      '1003': true,
      '1004': false,
      '1005': true,
      '1006': false,
    })
    expect(spaces.find((s) => s.id === SPACES.stark)?.role).toBe('member_view')
  })

  it('subscribe / unsubscribe folders and events; events types shows the subscriptions', async () => {
    const url = 'https://hooks.example.com/webhooks/abc'
    expect(
      (await service('subscribe', 'events', 'MATERIAL_DELETED,MATERIAL_INBOUND_COMPLETED', '--url', url))
        .code,
    ).toBe(0)
    expect(
      (await service('subscribe', 'folders', FOLDERS.acme.campaigns, FOLDERS.acme.brand, '--url', url)).code,
    ).toBe(0)
    const state = sim.control.snapshot()
    expect(state.eventSubscriptions.map((s) => s.eventType).sort()).toEqual([
      'MATERIAL_DELETED',
      'MATERIAL_INBOUND_COMPLETED',
    ])
    expect(state.folderSubscriptions.map((s) => s.folderId)).toEqual([
      FOLDERS.acme.campaigns,
      FOLDERS.acme.brand,
    ])
    const types = json(await service('events', 'types', '--json')) as Array<{
      code: string
      subscribed: boolean
    }>
    expect(
      types
        .filter((t) => t.subscribed)
        .map((t) => t.code)
        .sort(),
    ).toEqual(['MATERIAL_DELETED', 'MATERIAL_INBOUND_COMPLETED'])

    expect(
      (await service('unsubscribe', 'events', 'MATERIAL_DELETED', 'MATERIAL_INBOUND_COMPLETED', '--url', url))
        .code,
    ).toBe(0)
    expect(
      (await service('unsubscribe', 'folders', FOLDERS.acme.campaigns, FOLDERS.acme.brand, '--url', url))
        .code,
    ).toBe(0)
    expect(sim.control.snapshot().eventSubscriptions).toEqual([])
    expect(sim.control.snapshot().folderSubscriptions).toEqual([])
    const unknown = await service('subscribe', 'events', 'NOT_AN_EVENT', '--url', url)
    expect(unknown.code).toBe(2)
  })

  it('config shows what is in effect and where it comes from, secrets masked', async () => {
    const shown = await service('config', '--json')
    const settings = (json(shown) as { settings: Array<{ name: string; value: string; source: string }> })
      .settings
    expect(settings.find((s) => s.name === 'baseUrl')).toMatchObject({ value: sim.urls.base, source: 'env' })
    expect(settings.find((s) => s.name === 'openToken')?.value).toBe(
      `…${sim.credentials.openToken.value.slice(-4)} (${sim.credentials.openToken.value.length} chars)`,
    )
    const table = await service('config')
    expect(table.stdout).toContain('SERVICE_TEAM_API_KEY')
  })

  it('never prints a secret, whatever the command', () => {
    expect(outputs.length).toBeGreaterThan(10)
    for (const secret of secretsOf(sim.credentials))
      for (const output of outputs) expect(output.stdout + output.stderr).not.toContain(secret)
  })
})

describe('service without configuration, with profiles, and with bad arguments', () => {
  const bare = (...args: string[]) => run(args, home.env)

  it('says which variable is missing and how to set it (exit 3)', async () => {
    const result = await bare('members', 'list')
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/^Error: SERVICE_BASE_URL is not set/)
    expect(result.stderr).toMatch(/Hint: .*service-sdk config set baseUrl/)
    const spaces = await bare('spaces', '--json')
    expect(spaces.code).toBe(3)
    expect(JSON.parse(spaces.stderr)).toMatchObject({ error: { code: 'config' } })
  })

  it('reads named profiles from the XDG config dir; --profile picks one; the file is private', async () => {
    for (const [name, value] of Object.entries({
      baseUrl: sim.urls.base,
      teamApiKey: sim.credentials.teamApiKey,
    }))
      expect((await bare('config', 'set', name, value, '--profile', 'local')).code).toBe(0)
    const file = join(home.env.XDG_CONFIG_HOME as string, 'service-sdk', 'config.json')
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.local.baseUrl).toBe(sim.urls.base)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect((await bare('members', 'list')).code).toBe(3) // "default" is not "local"
    const list = await bare('members', 'list', '--profile', 'local', '--json')
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(MEMBERS.ada.email)
    const missing = await bare('members', 'list', '--profile', 'nope')
    expect(missing.code).toBe(3)
    expect(missing.stderr).toMatch(/No profile named "nope"/)
    expect((await bare('config', 'set', 'colour', 'blue')).code).toBe(2)
  })

  it('refuses bad arguments before doing anything (exit 2)', async () => {
    for (const args of [
      ['upload'],
      ['upload', 'a.txt', '--concurrency', '0'],
      ['upload', 'a.txt', '--folder', 'abc'],
      ['trigger', 'NOPE'],
      ['trigger', 'MATERIAL_DELETED', '--variant', 'SIDEWAYS'],
      ['members', 'impersonate', '1', '--expiry-hours', 'soon'],
      ['listen', '--forward-to', 'not a url'],
      ['sim', '--port', 'x'],
      ['frobnicate'],
      ['members'],
    ]) {
      const result = await run(args, { ...home.env, ...sim.env })
      expect([args, result.code]).toEqual([args, 2])
      if (args[0] !== 'members') expect(result.stderr).toMatch(/^Error: /)
    }
    const missingFile = await run(['upload', 'does-not-exist.png'], { ...home.env, ...sim.env })
    expect(missingFile.code).toBe(2)
    expect(missingFile.stderr).toMatch(/No file matches does-not-exist\.png/)
  })

  it('has --help with examples on every command', async () => {
    const commands = [
      [],
      ['config'],
      ['config', 'set'],
      ['members'],
      ['members', 'list'],
      ['members', 'create'],
      ['members', 'invite'],
      ['members', 'impersonate'],
      ['spaces'],
      ['upload'],
      ['subscribe', 'folders'],
      ['subscribe', 'events'],
      ['unsubscribe', 'folders'],
      ['unsubscribe', 'events'],
      ['events', 'types'],
      ['listen'],
      ['trigger'],
      ['sim'],
      ['doctor'],
    ]
    for (const command of commands) {
      const result = await bare(...command, '--help')
      expect([command, result.code]).toEqual([command, 0])
      expect([command, /Examples?:|Start locally/.test(result.stdout)]).toEqual([command, true])
    }
  })

  it('reports an unreachable service with exit 4', async () => {
    const result = await run(['spaces'], { ...home.env, ...sim.env, SERVICE_OPEN_URL: 'http://127.0.0.1:9' })
    expect(result.code).toBe(4)
    expect(result.stderr).toMatch(/Hint: Is the service reachable/)
  })
})

describe('colours', () => {
  it('are off when the output is not a terminal, even in CI; FORCE_COLOR turns them on', async () => {
    const home2 = freshHome()
    const env: Record<string, string> = { ...home2.env, ...sim.env, CI: '1' }
    delete env.NO_COLOR
    const piped = await run(['spaces'], env)
    expect(piped.code).toBe(0)
    expect(piped.stdout).not.toContain('\u001b[')
    const forced = await run(['spaces'], { ...env, FORCE_COLOR: '1' })
    expect(forced.stdout).toContain('\u001b[')
    home2.remove()
  })
})
