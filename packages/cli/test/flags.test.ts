import { existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshHome, run } from './cli.ts'

// Every numeric option of every command, and the ids given as options: a bad value is a usage
// error (exit 2) that names the option and what it takes, before any file is read or request sent.

const home = freshHome()
let requests = 0
const server = createServer((_req, res) => {
  requests++
  res.writeHead(500).end()
})
let env: Record<string, string>
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  env = {
    ...home.env,
    SERVICE_BASE_URL: url,
    SERVICE_OPEN_URL: url,
    SERVICE_TEAM_API_KEY: 'team_key_for_flag_checks',
    SERVICE_OPEN_TOKEN: 'open_token_for_flag_checks',
    SERVICE_API_KEY: 'api_key_for_flag_checks',
  }
  writeFileSync(join(home.dir, 'a.txt'), 'a')
})
afterAll(() => {
  server.close()
  home.remove()
})

const CASES: Array<[args: string[], message: RegExp]> = [
  [
    ['listen', '--max-attempts', '100000'],
    /'--max-attempts <n>' argument '100000' is invalid\. a whole number from 1 to 1000$/,
  ],
  [['listen', '--max-attempts', '0'], /--max-attempts.*a whole number from 1 to 1000$/],
  [['listen', '--max-attempts', '2.5'], /--max-attempts.*a whole number from 1 to 1000$/],
  [['listen', '--port', '65536'], /--port.*a port from 0 to 65535$/],
  [['listen', '--port', '-1'], /--port.*a port from 0 to 65535$/],
  [['listen', '--port', '1e3'], /--port.*a port from 0 to 65535$/],
  [['listen', '--port', ''], /--port.*a port from 0 to 65535$/],
  [['sim', '--port', '70000'], /--port.*a port from 0 to 65535$/],
  [['sim', '--oss-port', 'x'], /--oss-port.*a port from 0 to 65535$/],
  [['sim', '--oss-port', '0x10'], /--oss-port.*a port from 0 to 65535$/],
  [['upload', 'a.txt', '--concurrency', '0'], /--concurrency.*a whole number from 1 to 64$/],
  [['upload', 'a.txt', '--concurrency', '65'], /--concurrency.*a whole number from 1 to 64$/],
  [['upload', 'a.txt', '--concurrency', '1.5'], /--concurrency.*a whole number from 1 to 64$/],
  [['upload', 'a.txt', '--org', '-1'], /--org.*an id of decimal digits$/],
  [['upload', 'a.txt', '--folder', '12345678901234567890'], /--folder.*an id of decimal digits$/],
  [
    ['members', 'impersonate', '1', '--expiry-hours', '0'],
    /--expiry-hours.*a number of hours above 0, at most 720$/,
  ],
  [['members', 'impersonate', '1', '--expiry-hours', '721'], /--expiry-hours.*at most 720$/],
  [['members', 'impersonate', '1', '--expiry-hours', 'soon'], /--expiry-hours.*at most 720$/],
  [['members', 'impersonate', '1', '--expiry-hours', 'Infinity'], /--expiry-hours.*at most 720$/],
  [['trigger', 'MATERIAL_DELETED', '--folder', 'campaigns'], /--folder.*an id of decimal digits$/],
]

describe('numeric and id options', () => {
  it.each(CASES)('%j: exit 2, the option and what it takes, nothing read or sent', async (args, message) => {
    const result = await run([...args, '--json'], { ...env }, undefined)
    expect(result.code).toBe(2)
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } }
    expect(error.code).toBe('usage')
    expect(error.message).toMatch(message)
    expect(result.stdout).toBe('')
    expect(requests).toBe(0)
    expect(existsSync(env.XDG_STATE_HOME as string)).toBe(false)
  })

  it('a value in range is taken as given (--expiry-hours 0.5 reaches the service)', async () => {
    const result = await run(['members', 'impersonate', '1', '--expiry-hours', '0.5'], { ...env })
    expect(requests).toBeGreaterThan(0)
    expect(result.code).not.toBe(2)
  })
})
