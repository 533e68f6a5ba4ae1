import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ConfigError, DEFAULT_MAX_UPLOAD_BYTES, loadConfig } from '../src/config.ts'
import { startDemo } from '../src/start.ts'

const SERVICE = {
  SERVICE_BASE_URL: 'https://service.example.com',
  SERVICE_OPEN_URL: 'https://open.service.example.com',
  SERVICE_APP_URL: 'https://app.service.example.com',
  SERVICE_TEAM_API_KEY: 'team-key',
  SERVICE_OPEN_TOKEN_TYPE: 'Bearer',
  SERVICE_OPEN_TOKEN: 'open-token',
  SERVICE_API_KEY: 'api-key',
  DEMO_PUBLIC_URL: 'https://demo.example.com/',
}

function issuesOf(env: Record<string, string>) {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).issues
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  test('nothing set: the simulator, with defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      mode: 'simulator',
      service: undefined,
      publicUrl: undefined,
      port: 5173,
      host: '127.0.0.1',
      maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
      eventHistory: 200,
      watchFolderIds: [],
    })
    expect(config.dataDir).toMatch(/apps[/\\]demo-server[/\\]\.demo-data$/)
    expect(config.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]'])
  })

  test('everything set: the service, URLs without trailing slashes', () => {
    const config = loadConfig(SERVICE)
    expect(config.mode).toBe('service')
    expect(config.service).toEqual({
      baseUrl: 'https://service.example.com',
      openUrl: 'https://open.service.example.com',
      appUrl: 'https://app.service.example.com',
      teamApiKey: 'team-key',
      openToken: { type: 'Bearer', value: 'open-token' },
      apiKey: 'api-key',
    })
    expect(config.publicUrl).toBe('https://demo.example.com')
  })

  test('some SERVICE_* set: each missing one is named, and how to fall back to the simulator', () => {
    const issues = issuesOf({ SERVICE_BASE_URL: 'https://service.example.com', SERVICE_TEAM_API_KEY: 'k' })
    expect(issues.map((i) => i.variable)).toEqual([
      'SERVICE_OPEN_URL',
      'SERVICE_APP_URL',
      'SERVICE_OPEN_TOKEN_TYPE',
      'SERVICE_OPEN_TOKEN',
      'SERVICE_API_KEY',
      'DEMO_PUBLIC_URL',
    ])
    expect(issues[0]!.message).toContain('SERVICE_BASE_URL, SERVICE_TEAM_API_KEY are set')
    expect(issues[0]!.message).toContain('unset them all to use the simulator')
  })

  test('the error message lists every problem by variable, and never a value of a secret', () => {
    let message = ''
    try {
      loadConfig({ ...SERVICE, SERVICE_OPEN_URL: 'ftp://nope', PORT: 'eighty', SERVICE_API_KEY: '' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('SERVICE_OPEN_URL: must be an http(s) URL')
    expect(message).toContain('PORT: must be an integer from 0 to 65535; got "eighty"')
    expect(message).toContain('SERVICE_API_KEY: is missing')
    expect(message).not.toContain('team-key')
    expect(message).not.toContain('open-token')
  })

  test.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ DEMO_MAX_UPLOAD_BYTES: '0' }, 'DEMO_MAX_UPLOAD_BYTES'],
    [{ DEMO_EVENT_HISTORY: '-1' }, 'DEMO_EVENT_HISTORY'],
    [{ DEMO_WATCH_FOLDER_IDS: '12, abc' }, 'DEMO_WATCH_FOLDER_IDS'],
    [{ DEMO_PUBLIC_URL: 'not a url' }, 'DEMO_PUBLIC_URL'],
    [{ ...SERVICE, SERVICE_OPEN_TOKEN_TYPE: 'Two Words' }, 'SERVICE_OPEN_TOKEN_TYPE'],
  ])('a bad value names its variable: %o', (env, variable) => {
    expect(issuesOf(env).map((i) => i.variable)).toContain(variable)
  })

  test('watch folders, extra host names, a relative data dir', () => {
    const config = loadConfig({
      DEMO_WATCH_FOLDER_IDS: '1753946835010000005, 42',
      DEMO_ALLOWED_HOSTS: 'demo.internal',
      DEMO_DATA_DIR: 'some/dir',
    })
    expect(config.watchFolderIds).toEqual(['1753946835010000005', '42'])
    expect(config.allowedHosts).toContain('demo.internal')
    expect(config.dataDir).toBe(join(process.cwd(), 'some/dir'))
  })
})

describe('start-up against a configured service', () => {
  let sim: RunningSimulator
  let dataDir: string
  beforeAll(async () => {
    sim = await startSimulator()
    dataDir = mkdtempSync(join(tmpdir(), 'demo-config-'))
  })
  afterAll(async () => {
    await sim?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const envFor = (overrides: Record<string, string> = {}) => ({
    SERVICE_BASE_URL: sim.urls.base,
    SERVICE_OPEN_URL: sim.urls.open,
    SERVICE_APP_URL: sim.urls.app,
    SERVICE_TEAM_API_KEY: sim.credentials.teamApiKey,
    SERVICE_OPEN_TOKEN_TYPE: sim.credentials.openToken.type,
    SERVICE_OPEN_TOKEN: sim.credentials.openToken.value,
    SERVICE_API_KEY: sim.credentials.apiKey,
    DEMO_PUBLIC_URL: 'http://127.0.0.1:9',
    DEMO_DATA_DIR: dataDir,
    PORT: '0',
    ...overrides,
  })

  test('good credentials: it starts in service mode, on the given service', async () => {
    const demo = await startDemo(loadConfig(envFor()))
    try {
      expect(demo.mode).toBe('service')
      expect(demo.simulator).toBeUndefined()
      const members = await demo.app.request('/api/team/members')
      expect(members.status).toBe(200)
    } finally {
      await demo.stop()
    }
  })

  test('a key the service refuses is named at start-up', async () => {
    const start = startDemo(
      loadConfig(envFor({ SERVICE_TEAM_API_KEY: 'wrong', SERVICE_API_KEY: 'wrong-too' })),
    )
    await expect(start).rejects.toBeInstanceOf(ConfigError)
    const error = (await start.catch((e) => e)) as ConfigError
    expect(error.issues.map((i) => i.variable).sort()).toEqual(['SERVICE_API_KEY', 'SERVICE_TEAM_API_KEY'])
    expect(error.message).toContain('was refused by the service (401)')
    expect(error.message).not.toContain('wrong')
  })

  test('an open token the service refuses is named at start-up', async () => {
    const error = (await startDemo(loadConfig(envFor({ SERVICE_OPEN_TOKEN: 'nope-token' }))).catch(
      (e) => e,
    )) as ConfigError
    expect(error.issues.map((i) => i.variable)).toEqual(['SERVICE_OPEN_TOKEN / SERVICE_OPEN_TOKEN_TYPE'])
  })

  test('a service that cannot be reached is named at start-up', async () => {
    const closed = 'http://127.0.0.1:9'
    const error = (await startDemo(
      loadConfig(envFor({ SERVICE_BASE_URL: closed, SERVICE_OPEN_URL: closed })),
    ).catch((e) => e)) as ConfigError
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.issues.map((i) => i.variable).sort()).toEqual(['SERVICE_BASE_URL', 'SERVICE_OPEN_URL'])
  })

  test('a port in use is named', async () => {
    const first = await startDemo(loadConfig(envFor()))
    try {
      const error = (await startDemo(loadConfig(envFor({ PORT: String(first.port) }))).catch(
        (e) => e,
      )) as ConfigError
      expect(error.issues).toEqual([expect.objectContaining({ variable: 'PORT' })])
    } finally {
      await first.stop()
    }
  })
})
