import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { defaultSeed, SPACES } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { createWebhookReceiver, generateWebhookToken, sqliteStore } from '@service-sdk/webhooks'
import { webhooksNode } from '@service-sdk/webhooks/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { finished, freshHome, lineMatching, type Run, run, secretsOf, start } from './cli.ts'

// `service-sdk doctor` against a real simulator, each check broken in turn by the simulator's
// faults and quirks (or a wrong setting): that check fails or warns with its advice, and the
// others stay as they were. Its JSON output is parsed; every output is scanned for secrets.

const sim = useSimulator()
const home = freshHome()
const ORIGIN = 'https://app.example.com'

interface Row {
  check: string
  status: 'ok' | 'warn' | 'fail' | 'skip'
  detail: string
  advice: string | null
}

/** Every output, and every secret any run could have printed (sim credentials, STS secrets, wrong keys). */
const outputs: Run[] = []
const secrets = new Set<string>()

async function doctor(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const result = await run(['doctor', ...args], { ...home.env, ...sim.env, ...env })
  outputs.push(result)
  for (const s of sim.control.snapshot().sts)
    for (const v of [s.accessKeyId, s.accessKeySecret, s.securityToken]) secrets.add(v)
  for (const [name, value] of Object.entries(env)) if (/KEY|TOKEN$/.test(name) && value) secrets.add(value)
  return result
}

const rows = (result: Run) => JSON.parse(result.stdout) as Row[]
const row = (result: Run, check: string) => rows(result).find((r) => r.check === check) as Row
const statuses = (result: Run) => Object.fromEntries(rows(result).map((r) => [r.check, r.status]))

const GREEN = {
  'team-api-key': 'ok',
  'open-token': 'ok',
  'api-key': 'ok',
  spaces: 'ok',
  'sts-write': 'ok',
  cors: 'ok',
  'event-types': 'ok',
  'webhook-url': 'ok',
} as const

/** A webhook receiver of this SDK (node adapter, in-memory inbox), as the user would run it. */
const token = generateWebhookToken()
secrets.add(token)
const receiver = createWebhookReceiver({ token, store: sqliteStore(':memory:') })
let receiverServer: Server
let receiverUrl: string
beforeAll(async () => {
  receiverServer = createHttpServer(webhooksNode(receiver))
  await new Promise<void>((resolve) => receiverServer.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}/webhooks/${token}`
  for (const secret of secretsOf(sim.credentials)) secrets.add(secret)
})
afterAll(async () => {
  await new Promise((resolve) => receiverServer.close(resolve))
  await receiver.close()
  home.remove()
})

/** Every check asked for. */
const all = () => ['--json', '--origin', ORIGIN, '--webhook-url', receiverUrl]

describe('service-sdk doctor on a healthy simulator', () => {
  it('every check is ok, exit 0; the probe is written and removed; no asset, subscription or event is made', async () => {
    const deletes = sim.control.faults.inject({
      match: { target: 'oss', op: 'DeleteObject' },
      action: { type: 'latency', ms: 0 },
      times: Number.POSITIVE_INFINITY,
    })
    const result = await doctor([...all(), '--org', SPACES.acme])
    expect(result.code).toBe(0)
    expect(statuses(result)).toEqual(GREEN)
    expect(row(result, 'spaces').detail).toMatch(/^space 1001 Acme Design: writable/)
    expect(row(result, 'sts-write').detail).toMatch(
      /^wrote and removed upload\/\d+\/service-sdk-doctor-[\w-]+\.txt/,
    )
    expect(deletes.hits).toBe(1)
    const state = sim.control.snapshot()
    expect([state.materials.length, state.eventSubscriptions, state.folderSubscriptions]).toEqual([0, [], []])
    expect(sim.control.webhooks.deliveries()).toEqual([])
    // The receiver refused the probe unread: nothing in its inbox.
    expect(await receiver.events.counts()).toEqual({ pending: 0, processing: 0, done: 0, dead: 0 })
    expect(result.stderr).toBe('')
  })

  it('for people: a table of status, check, detail and advice, and a summary on stderr', async () => {
    const result = await doctor(['--org', SPACES.stark])
    expect(result.code).toBe(8)
    expect(result.stdout).toMatch(/│ status │ check\s+│ detail\s+│ advice\s+│/)
    expect(result.stdout).toMatch(/│ fail\s+│ spaces\s+│ space 1006 Stark Library: not/)
    expect(result.stderr).toBe('1 failed, 2 not checked: the advice column says what to do.\n')
  })
})

describe('each check, broken', () => {
  it('a wrong team API key: team-api-key fails with its advice (exit 8), the rest stay green', async () => {
    const result = await doctor(all(), { SERVICE_TEAM_API_KEY: 'team_sk_wrong_0123456789abcdef' })
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({ ...GREEN, 'team-api-key': 'fail' })
    expect(row(result, 'team-api-key')).toMatchObject({
      detail: expect.stringMatching(/^refused by the team API: Unauthorized/),
      advice: expect.stringMatching(/^SERVICE_TEAM_API_KEY is not accepted at http:\/\/127\.0\.0\.1:\d+/),
    })
  })

  it('a wrong open token: open-token fails; what needs it is not checked (skip)', async () => {
    const result = await doctor(all(), { SERVICE_OPEN_TOKEN: 'ot_wrong_0123456789abcdef' })
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({
      ...GREEN,
      'open-token': 'fail',
      spaces: 'skip',
      'sts-write': 'skip',
      cors: 'skip',
    })
    expect(row(result, 'open-token').advice).toMatch(/^SERVICE_OPEN_TOKEN is not accepted/)
    expect(row(result, 'cors').detail).toMatch(/not checked: needs a credential from sts-tmp/)
  })

  it('a wrong subscription API key: api-key fails; event-types is not checked', async () => {
    const result = await doctor(all(), { SERVICE_API_KEY: 'sk_wrong_0123456789abcdef' })
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({ ...GREEN, 'api-key': 'fail', 'event-types': 'skip' })
    expect(row(result, 'api-key').advice).toMatch(/^SERVICE_API_KEY is not accepted/)
  })

  it('the API calls are retried once: one failure passes, two fail the check with the answer', async () => {
    sim.control.faults.inject({ match: { path: '/org-info' }, action: { type: 'status', status: 503 } })
    expect(statuses(await doctor(all()))).toEqual(GREEN)
    sim.control.faults.inject({
      match: { path: '/org-info' },
      action: { type: 'status', status: 503 },
      times: 2,
    })
    const twice = await doctor(all())
    expect(row(twice, 'open-token')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^the open API answered with a failure: /),
    })
  })

  it('a URL where nothing listens: the check fails as unreachable, naming the variable', async () => {
    const closed = createHttpServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
    const result = await doctor(all(), { SERVICE_BASE_URL: url })
    expect(statuses(result)).toEqual({ ...GREEN, 'team-api-key': 'fail' })
    expect(row(result, 'team-api-key')).toMatchObject({
      detail: expect.stringMatching(new RegExp(`^${url} could not be reached: `)),
      advice: expect.stringMatching(/^Check SERVICE_BASE_URL/),
    })
  })

  it('a key not configured is a warning, not a failure (exit 0)', async () => {
    const result = await doctor(all(), { SERVICE_TEAM_API_KEY: '' })
    expect(result.code).toBe(0)
    expect(statuses(result)).toEqual({ ...GREEN, 'team-api-key': 'warn' })
    expect(row(result, 'team-api-key')).toMatchObject({
      detail: 'not configured: SERVICE_TEAM_API_KEY is not set',
      advice: expect.stringMatching(/^Set SERVICE_TEAM_API_KEY/),
    })
  })

  it('a view-only space and an expired one (--org) fail with the reason; without --org they are listed', async () => {
    const viewOnly = await doctor([...all(), '--org', SPACES.stark])
    expect(statuses(viewOnly)).toEqual({ ...GREEN, spaces: 'fail' })
    expect(row(viewOnly, 'spaces')).toMatchObject({
      detail: 'space 1006 Stark Library: not writable: view-only role, member_view',
      advice: expect.stringMatching(
        /role that may upload\. Upload with --org one of 1001, 1002, 1003, 1005$/,
      ),
    })
    const expired = await doctor([...all(), '--org', SPACES.umbrella])
    expect(row(expired, 'spaces')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^space 1004 Umbrella Archive: not writable: expired \d{4}-\d\d-\d\d$/),
      advice: expect.stringMatching(/renews the space/),
    })
    const notMember = await doctor([...all(), '--org', '4242'])
    expect(row(notMember, 'spaces').detail).toBe("space 4242: the token's user is not a member")
    const listed = await doctor(all())
    expect(row(listed, 'spaces')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /not writable: 1004 Umbrella Archive \[expired [\d-]+\], 1006 Stark Library \[view-only role, member_view\]$/,
      ),
    })
  })

  it('no writable team space at all: spaces warns', async () => {
    const seed = defaultSeed()
    const ada = seed.users.find((u) => u.id === seed.caller.userId)
    for (const m of ada?.memberships ?? []) m.roleId = 4
    sim.control.reset(seed)
    const result = await doctor(all())
    expect(statuses(result)).toEqual({ ...GREEN, spaces: 'warn' })
    expect(row(result, 'spaces')).toMatchObject({
      detail: expect.stringMatching(/^0 of 6 team spaces writable; not writable:/),
      advice: expect.stringMatching(/^No team space takes uploads/),
    })
  })

  it('an STS credential that cannot write (PutObject AccessDenied): sts-write fails naming the policy', async () => {
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
    })
    const result = await doctor(all())
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({ ...GREEN, 'sts-write': 'fail' })
    expect(row(result, 'sts-write')).toMatchObject({
      detail: expect.stringMatching(
        /^PutObject of upload\/\d+\/service-sdk-doctor-.* refused: 403 AccessDenied/,
      ),
      advice: expect.stringMatching(
        /^The STS credential may not write under upload\/\d+\/: the policy of the role behind sts-tmp must allow oss:PutObject on service-sim\/upload\/\d+\/\*$/,
      ),
    })
  })

  it('an STS credential that expired on the way: sts-write fails with what to check', async () => {
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'expire-credentials' },
    })
    const result = await doctor(all())
    expect(statuses(result)).toEqual({ ...GREEN, 'sts-write': 'fail' })
    expect(row(result, 'sts-write').advice).toMatch(
      /does not accept sts-tmp's credential \(\w+\): check this machine's clock/,
    )
  })

  it('a probe that cannot be removed: sts-write warns, naming the key to remove (exit 0)', async () => {
    sim.control.faults.inject({
      match: { target: 'oss', op: 'DeleteObject' },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
    })
    const result = await doctor(all())
    expect(result.code).toBe(0)
    expect(statuses(result)).toEqual({ ...GREEN, 'sts-write': 'warn' })
    const { detail, advice } = row(result, 'sts-write')
    const key = /^wrote (upload\/\S+\.txt) in bucket service-sim/.exec(detail)?.[1]
    expect(detail).toMatch(/but could not remove it: 403 AccessDenied/)
    expect(advice).toContain(`Remove ${key} from bucket service-sim by hand`)
  })

  it('a bucket without CORS rules: cors fails with the whole rule to add', async () => {
    sim.control.quirks.ossCors = 'none'
    const result = await doctor(all())
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({ ...GREEN, cors: 'fail' })
    expect(row(result, 'cors')).toMatchObject({
      detail: `${ORIGIN}: no CORS rule of bucket service-sim lets this page PUT with a Content-Type header (the preflight was answered 403 without Access-Control-Allow-Origin)`,
      advice: `Add a CORS rule to bucket service-sim: AllowedOrigin ${ORIGIN}; AllowedMethod GET, PUT, POST, DELETE, HEAD; AllowedHeader *; ExposeHeader ETag, x-oss-request-id, x-oss-hash-crc64ecma`,
    })
  })

  it('a CORS rule that exposes neither ETag nor the CRC: cors fails naming both', async () => {
    sim.control.quirks.ossCors = [
      {
        allowedOrigins: [ORIGIN],
        allowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
        allowedHeaders: ['*'],
      },
    ]
    const result = await doctor(all())
    expect(statuses(result)).toEqual({ ...GREEN, cors: 'fail' })
    expect(row(result, 'cors')).toMatchObject({
      detail: `${ORIGIN}: ETag not exposed (multipart uploads from this page fail); x-oss-hash-crc64ecma not exposed (browser uploads skip the integrity check)`,
      advice: `In the CORS rule of bucket service-sim for ${ORIGIN}: add ETag to ExposeHeader; add x-oss-hash-crc64ecma to ExposeHeader`,
    })
  })

  it('a rule that exposes ETag but not the CRC warns (exit 0); one without POST and DELETE fails', async () => {
    const rule = { allowedOrigins: ['https://*.example.com'], allowedHeaders: ['content-type'] }
    sim.control.quirks.ossCors = [
      { ...rule, allowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], exposeHeaders: ['ETag'] },
    ]
    const crc = await doctor(all())
    expect(crc.code).toBe(0)
    expect(row(crc, 'cors')).toMatchObject({
      status: 'warn',
      advice: expect.stringMatching(/add x-oss-hash-crc64ecma to ExposeHeader$/),
    })
    sim.control.quirks.ossCors = [
      { ...rule, allowedMethods: ['GET', 'PUT', 'HEAD'], exposeHeaders: ['ETag', 'x-oss-hash-crc64ecma'] },
    ]
    const methods = await doctor(all())
    expect(row(methods, 'cors')).toMatchObject({
      status: 'fail',
      detail: `${ORIGIN}: POST, DELETE not allowed (multipart uploads need every one)`,
      advice: `In the CORS rule of bucket service-sim for ${ORIGIN}: add POST, DELETE to AllowedMethod`,
    })
  })

  it('--origin is repeatable: one row per page, each judged by the rules for it', async () => {
    sim.control.quirks.ossCors = [
      {
        allowedOrigins: [ORIGIN],
        allowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
        allowedHeaders: ['*'],
        exposeHeaders: ['ETag', 'x-oss-request-id', 'x-oss-hash-crc64ecma'],
      },
    ]
    const result = await doctor([...all(), '--origin', 'http://localhost:5173'])
    const cors = rows(result).filter((r) => r.check === 'cors')
    expect(cors.map((r) => [r.status, r.detail.slice(0, r.detail.indexOf(': '))])).toEqual([
      ['ok', ORIGIN],
      ['fail', 'http://localhost:5173'],
    ])
  })

  it('without --origin the CORS check is skipped with how to run it; asked for without an open token it fails', async () => {
    const skipped = await doctor(['--json', '--webhook-url', receiverUrl])
    expect(row(skipped, 'cors')).toMatchObject({ status: 'skip', advice: expect.stringMatching(/--origin/) })
    const unconfigured = await doctor(all(), { SERVICE_OPEN_TOKEN: '' })
    expect(row(unconfigured, 'open-token').status).toBe('warn')
    expect(row(unconfigured, 'cors')).toMatchObject({
      status: 'fail',
      detail: `${ORIGIN}: needs the open API token to find the bucket (sts-tmp)`,
    })
  })

  it('the subscription capability off (event-types refused): event-types fails, the API key is still accepted', async () => {
    const seed = defaultSeed()
    sim.control.reset({ ...seed, caller: { ...seed.caller, teamId: SPACES.initech } }) // no asset events
    sim.control.quirks.eventTypesNeedCapability = true
    const result = await doctor(all())
    expect(result.code).toBe(8)
    expect(statuses(result)).toEqual({ ...GREEN, 'event-types': 'fail' })
    expect(row(result, 'event-types')).toMatchObject({
      detail: expect.stringMatching(/^event-types refused: .*capability/),
      advice: expect.stringMatching(/lacks asset-event subscriptions/),
    })
  })
})

describe('the webhook URL: one POST with an empty text/plain body, which a receiver refuses unread', () => {
  it('a wrong token is "not found"; nothing listening is "connection refused"', async () => {
    const wrong = await doctor([...all().slice(0, 3), '--webhook-url', `${receiverUrl}x`])
    expect(statuses(wrong)).toEqual({ ...GREEN, 'webhook-url': 'fail' })
    expect(row(wrong, 'webhook-url')).toMatchObject({
      detail: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/<token>: not found \(404\)/),
      advice: expect.stringMatching(/token/),
    })
    const closed = createHttpServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const refused = await doctor(['--json', '--webhook-url', `http://127.0.0.1:${port}/webhooks/${token}`])
    expect(row(refused, 'webhook-url')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/<token>: connection refused/),
      advice: expect.stringMatching(/^Nothing listens there/),
    })
  })

  it('a receiver that never answers: no answer within --timeout', async () => {
    const hanging = createHttpServer(() => {})
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    try {
      const port = (hanging.address() as AddressInfo).port
      const url = `http://127.0.0.1:${port}/webhooks/${token}`
      const result = await doctor(['--json', '--timeout', '0.5', '--webhook-url', url])
      expect(row(result, 'webhook-url')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/<token>: no answer within 0\.5 s$/),
      })
    } finally {
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  })

  it('a certificate no CA signed is a TLS error', async () => {
    const dir = home.dir
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    const server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      webhooksNode(receiver),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const result = await doctor(['--json', '--webhook-url', `https://127.0.0.1:${port}/webhooks/${token}`])
      expect(row(result, 'webhook-url')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/<token>: TLS error: DEPTH_ZERO_SELF_SIGNED_CERT/),
        advice: expect.stringMatching(/certificate that a public CA signed/),
      })
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('arguments, configuration and the sim command', () => {
  it('refuses a bad --origin, --webhook-url or --org before anything is sent (exit 2)', async () => {
    for (const args of [
      ['--origin', 'app.example.com'],
      ['--origin', 'https://app.example.com/upload'],
      ['--webhook-url', 'ftp://hooks.example.com/x'],
      ['--org', 'acme'],
      ['--timeout', '0'],
    ]) {
      const result = await doctor(args)
      expect([args, result.code, result.stdout]).toEqual([args, 2, ''])
    }
  })

  it('nothing configured: every check warns or is not checked, exit 3', async () => {
    const result = await run(['doctor', '--json'], home.env)
    outputs.push(result)
    expect(result.code).toBe(3)
    expect(statuses(result)).toEqual({
      'team-api-key': 'warn',
      'open-token': 'warn',
      'api-key': 'warn',
      spaces: 'skip',
      'sts-write': 'skip',
      cors: 'skip',
      'event-types': 'skip',
      'webhook-url': 'skip',
    })
  })

  it('a quirk given to `service-sdk sim --quirks` breaks its check: a bucket without CORS rules', async () => {
    const simHome = freshHome()
    const child = start(
      ['sim', '--port', '0', '--oss-port', '0', '--env', '--quirks', '{"ossCors":"none"}'],
      simHome.env,
    )
    const done = finished(child)
    const env: Record<string, string> = {}
    await lineMatching(child, (line) => {
      const [, name, value] = /^export ([A-Z_]+)=(.*)$/.exec(line) ?? []
      if (name?.startsWith('SERVICE_')) env[name] = value as string
      return name === 'WEBHOOK_TOKEN'
    })
    const result = await run(['doctor', '--json', '--origin', ORIGIN], { ...simHome.env, ...env })
    outputs.push(result)
    for (const name of ['SERVICE_TEAM_API_KEY', 'SERVICE_OPEN_TOKEN', 'SERVICE_API_KEY'])
      secrets.add(env[name] as string)
    expect(statuses(result)).toEqual({ ...GREEN, cors: 'fail', 'webhook-url': 'skip' })
    const bad = await run(
      ['sim', '--port', '0', '--oss-port', '0', '--quirks', '{"ossCors":"closed"}'],
      simHome.env,
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^Error: quirk ossCors/)
    child.kill('SIGTERM')
    expect((await done).code).toBe(0)
    simHome.remove()
  })

  it('never prints a key, a token, an STS secret or the webhook token', () => {
    expect(outputs.length).toBeGreaterThan(20)
    expect(secrets.size).toBeGreaterThan(10)
    for (const secret of secrets)
      for (const output of outputs) expect(output.stdout + output.stderr).not.toContain(secret)
  })
})
