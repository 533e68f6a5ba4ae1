import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultSeed, type RunningSimulator, startSimulator } from '../src/index.ts'
import { expectResponseMatchesSpec, expectWebhookMatchesSpec, spec } from './spec-validator.ts'

// Every answer of every endpoint, success and failure, checked against spec/openapi.yaml, and
// every callback and webhook body the sender emits checked against the spec's `webhooks`.

const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }

let sim: RunningSimulator
let receiver: Server
let receiverUrl: string
const received: Array<{ path: string; body: unknown }> = []
const covered = new Set<string>()

const TEAM_PATHS = {
  list: '/api/team/members',
  create: '/api/team/members/create',
  invite: '/api/team/members/invite',
  impersonate: '/api/team/members/{userId}/impersonation',
}
const CALL = '/open-api/standard/call/service'

/** Call the simulator and check the answer against the spec; returns status and body. */
async function call(
  method: 'GET' | 'POST',
  specPath: string,
  options: { path?: string; auth?: string; body?: unknown; contentType?: string | null } = {},
) {
  const headers: Record<string, string> = {}
  if (options.auth) headers.authorization = options.auth
  const hasBody = options.body !== undefined
  if (options.contentType !== null && (hasBody || options.contentType))
    headers['content-type'] = options.contentType ?? 'application/json'
  const response = await fetch(`${sim.urls.base}${options.path ?? specPath}`, {
    method,
    headers,
    ...(hasBody
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  })
  const body = (await response.json()) as Record<string, unknown>
  expectResponseMatchesSpec(method, specPath, response.status, body)
  covered.add(`${method} ${specPath} ${response.status}${'code' in body ? ` ${String(body.code)}` : ''}`)
  return { status: response.status, body }
}

const team = () => `Bearer ${sim.credentials.teamApiKey}`
const token = () => `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`
const apiKey = () => `Bearer ${sim.credentials.apiKey}`

async function uploadObject(name: string, bytes: Buffer): Promise<string> {
  const { body } = await call('POST', `${CALL}/sts-tmp`, { auth: token(), contentType: 'application/json' })
  const c = body.result as Record<string, string>
  const oss = new OSS({
    endpoint: c.endPoint,
    accessKeyId: c.accessKeyId,
    accessKeySecret: c.accessKeySecret,
    stsToken: c.securityToken,
    bucket: c.bucket,
  })
  const key = `${c.dir}${name}`
  await oss.put(key, bytes)
  return key
}

beforeAll(async () => {
  sim = await startSimulator({ webhooks: { retry: { initialDelayMs: 5 } } })
  receiver = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})

afterAll(async () => {
  await sim.stop()
  await new Promise((resolve) => receiver.close(resolve))
})

describe('team API answers match the spec', () => {
  test('list: 200 and 401 (missing and wrong key) with the documented text', async () => {
    expect((await call('GET', TEAM_PATHS.list, { auth: team() })).status).toBe(200)
    const missing = await call('GET', TEAM_PATHS.list)
    expect(missing).toEqual({
      status: 401,
      body: { success: false, error: 'Unauthorized: API Key is required' },
    })
    expect((await call('GET', TEAM_PATHS.list, { auth: 'Bearer nope' })).status).toBe(401)
  })

  test('create: 200, 400, 403 naming the domain, 409', async () => {
    expect(
      (await call('POST', TEAM_PATHS.create, { auth: team(), body: { email: 'spec@acme.com' } })).status,
    ).toBe(200)
    expect((await call('POST', TEAM_PATHS.create, { auth: team(), body: { email: 'nope' } })).status).toBe(
      400,
    )
    expect(
      (
        await call('POST', TEAM_PATHS.create, {
          auth: team(),
          body: { email: 'x@y.com' },
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(400)
    const forbidden = await call('POST', TEAM_PATHS.create, {
      auth: team(),
      body: { email: 'a@example.org' },
    })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.error).toMatch(/example\.org.*whitelist/)
    expect(
      (await call('POST', TEAM_PATHS.create, { auth: team(), body: { email: 'spec@acme.com' } })).status,
    ).toBe(409)
  })

  test('invite: 200, 404 for an unregistered user, 409 for a member', async () => {
    expect(
      (await call('POST', TEAM_PATHS.invite, { auth: team(), body: { email: 'linus@acme.com' } })).status,
    ).toBe(200)
    expect(
      (await call('POST', TEAM_PATHS.invite, { auth: team(), body: { email: 'ghost@acme.com' } })).status,
    ).toBe(404)
    expect(
      (await call('POST', TEAM_PATHS.invite, { auth: team(), body: { email: 'linus@acme.com' } })).status,
    ).toBe(409)
  })

  test('impersonation: 200 with defaults, 400, 403, 404 with the documented text', async () => {
    const path = (id: string) => `/api/team/members/${id}/impersonation`
    const ok = await call('POST', TEAM_PATHS.impersonate, { auth: team(), path: path('1673603133161799681') })
    expect(ok.body.data).toMatchObject({ expiryHours: 24, callbackUrl: '/' })
    expect((await call('POST', TEAM_PATHS.impersonate, { auth: team(), path: path('abc') })).status).toBe(400)
    expect(
      (await call('POST', TEAM_PATHS.impersonate, { auth: team(), path: path('1673603133161799682') }))
        .status,
    ).toBe(403)
    const missing = await call('POST', TEAM_PATHS.impersonate, {
      auth: team(),
      path: path('1673603133161799684'),
    })
    expect(missing).toEqual({ status: 404, body: { success: false, error: 'Member not found in this team' } })
  })

  test('an injected failure is a 500 with the documented text', async () => {
    sim.control.faults.inject({ match: { target: 'team' }, action: { type: 'status', status: 500 } })
    expect(await call('GET', TEAM_PATHS.list, { auth: team() })).toEqual({
      status: 500,
      body: { success: false, error: 'Internal server error' },
    })
  })
})

describe('open API answers match the spec', () => {
  test('sts-tmp and org-info: 200 and 401', async () => {
    expect(
      (await call('POST', `${CALL}/sts-tmp`, { auth: token(), contentType: 'application/json' })).body.code,
    ).toBe('0')
    expect((await call('POST', `${CALL}/org-info`, { auth: token() })).body.code).toBe('0')
    expect((await call('POST', `${CALL}/org-info`, { auth: 'Bearer' })).status).toBe(401)
  })

  test('material-save: both body forms, and each refusal code', async () => {
    const key = await uploadObject('spec.txt', Buffer.from('spec'))
    const item = { key, name: 'spec', extension: 'txt', size: 4 }
    expect(
      (await call('POST', `${CALL}/material-save`, { auth: token(), body: { materials: [item] } })).body.code,
    ).toBe('0')
    expect(
      (await call('POST', `${CALL}/material-save`, { auth: token(), body: { param: { materials: [item] } } }))
        .body.code,
    ).toBe('0')
    const codes = async (body: unknown) =>
      (await call('POST', `${CALL}/material-save`, { auth: token(), body })).body.code
    expect(await codes({ materials: [] })).toBe('MB100001')
    expect(await codes({ orgId: 1006, materials: [item] })).toBe('MB100002')
    expect(await codes({ orgId: 1, materials: [item] })).toBe('MB100002')
    expect(await codes({ materials: [{ ...item, key: `${key}.missing` }] })).toBe('MB100003')
    expect(await codes({ materials: [{ ...item, key: 'elsewhere/spec.txt' }] })).toBe('MB100002')
  })

  test('subscriptions: folder-subscribe, event types wrapped and bare, material-automation-subscribe', async () => {
    // Ids travel as JSON integers with every digit (a 19-digit literal, not JSON.stringify of a number).
    const folder = await call('POST', '/api/service/folder-subscribe', {
      auth: apiKey(),
      body: `{"folderIds":[1753946835000000002],"callbackUrl":"${receiverUrl}/folder"}`,
    })
    expect(folder.body).toMatchObject({ code: '0', result: true, traceId: expect.any(String) })
    const asString = await call('POST', '/api/service/folder-subscribe', {
      auth: apiKey(),
      body: { folderIds: ['1753946835000000002'], callbackUrl: `${receiverUrl}/folder` },
    })
    expect(asString.body).toMatchObject({ code: 'MB100001', message: expect.stringContaining('JSON number') })
    expect(
      (
        await call('POST', '/api/service/folder-subscribe', {
          auth: apiKey(),
          body: { folderIds: [42], callbackUrl: `${receiverUrl}/x` },
        })
      ).body.code,
    ).toBe('MB100003')
    const events = await call('POST', '/api/service/material-automation-subscribe', {
      auth: apiKey(),
      body: {
        callbackUrl: `${receiverUrl}/events`,
        eventTypes: spec.components.schemas?.AssetEventType?.enum,
      },
    })
    expect(events.body.result).toBe(true)
    expect(
      (
        await call('POST', '/api/service/material-automation-subscribe', {
          auth: apiKey(),
          body: { callbackUrl: `${receiverUrl}/e`, eventTypes: ['NOPE'] },
        })
      ).body.code,
    ).toBe('MB100001')
    const types = await call('GET', '/api/service/material-automation-event-types', { auth: apiKey() })
    expect((types.body.result as Array<{ subscribed: boolean }>).every((t) => t.subscribed)).toBe(true)
    sim.control.quirks.bareEventTypes = true
    const bare = await call('GET', '/api/service/material-automation-event-types', { auth: apiKey() })
    expect(Array.isArray(bare.body)).toBe(true)
    sim.control.quirks.bareEventTypes = false
    expect((await call('GET', '/api/service/material-automation-event-types')).status).toBe(401)
  })

  test('a team without the capability is refused with MB100002', async () => {
    const seed = defaultSeed()
    const other = await startSimulator({ seed: { ...seed, caller: { ...seed.caller, teamId: '1003' } } })
    try {
      const response = await fetch(`${other.urls.open}/api/service/material-automation-subscribe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.credentials.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ callbackUrl: 'https://h.example/e', eventTypes: ['MATERIAL_DELETED'] }),
      })
      const body = await response.json()
      expectResponseMatchesSpec('POST', '/api/service/material-automation-subscribe', response.status, body)
      expect(body).toMatchObject({ code: 'MB100002', message: expect.stringContaining('capability') })
    } finally {
      await other.stop()
    }
  })

  test('busy and HTTP failures injected by faults match the spec too', async () => {
    sim.control.faults.inject({
      match: { target: 'open' },
      action: { type: 'open-code', code: 'MS100003', message: 'busy' },
    })
    expect((await call('POST', `${CALL}/org-info`, { auth: token() })).body.code).toBe('MS100003')
    sim.control.faults.inject({
      match: { target: 'open' },
      action: { type: 'status', status: 503, retryAfterSeconds: 1 },
    })
    expect((await call('POST', `${CALL}/org-info`, { auth: token() })).status).toBe(503)
  })
})

describe('callbacks and webhooks match the spec', () => {
  test('every body the sender emits, for uploads and each kind of change', async () => {
    sim.control.webhooks.configure({ eventTimeFormat: 'mixed', nullHeavy: false })
    const key = await uploadObject('hook.png', Buffer.from('png'))
    await call('POST', `${CALL}/material-save`, {
      auth: token(),
      body: `{"materials":[{"key":"${key}","name":"hook","extension":"png","size":3,"folderId":1753946835000000002}]}`,
    })
    // The JSON body's 19-digit id is rounded by JSON.parse: take the exact one from the state.
    const id = sim.control.snapshot().materials.find((x) => x.key === key)?.id ?? ''
    const m = sim.control.materials
    m.updateMetadata(id, { changeType: 'BASIC', name: 'renamed', description: 'd', score: 4 })
    m.updateMetadata(id, { changeType: 'TAGS', tagNames: ['brand', 'q3'] })
    m.updateMetadata(id, { changeType: 'VALIDITY', validityStatus: 1, daysToExpire: 30, isPermanent: false })
    m.updateMetadata(id, { changeType: 'METADATA', metadata: { campaign: 'spring' } })
    m.updateMetadata(id, { changeType: 'CUSTOM_FIELD', customFields: [{ templateId: '7', value: 'x' }] })
    sim.control.webhooks.configure({ nullHeavy: true })
    m.delete([id])
    m.purge([id])
    await sim.control.webhooks.idle()

    const types = new Set<string>()
    for (const { body } of received) {
      const eventType = String((body as { eventType: string }).eventType)
      expectWebhookMatchesSpec(eventType, body)
      types.add(eventType)
    }
    expect([...types].sort()).toEqual([
      'FOLDER_CONTENT_UPDATE',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_DELETED',
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_METADATA_UPDATED',
    ])
  })

  test('the documented variants match it too: root, pending intake, cover replaced, folders deleted, KB', async () => {
    const from = received.length
    const root = await call('POST', '/api/service/folder-subscribe', {
      auth: apiKey(),
      body: `{"folderIds":[0,1753946835010000004],"callbackUrl":"${receiverUrl}/variants"}`,
    })
    expect(root.body).toMatchObject({ code: '0', result: true })
    sim.control.quirks.callbackSizeUnit = 'KB'
    const key = await uploadObject('root.png', Buffer.from('root'))
    await call('POST', `${CALL}/material-save`, {
      auth: token(),
      body: `{"orgId":1001,"materials":[{"key":"${key}","name":"root","extension":"png","size":4}]}`,
    })
    const m = sim.control.materials
    await m.confirmPendingIntake(
      [
        { name: 'a', extension: 'pdf' },
        { name: 'b', extension: 'pdf' },
      ],
      {
        orgId: '1001',
        folderId: '1753946835010000004',
      },
    )
    const [a, b] = sim.control
      .snapshot()
      .materials.filter((x) => x.key.startsWith('pending/'))
      .map((x) => x.id) as [string, string]
    m.addToFolder([a], '1753946835010000005')
    m.replaceCoverOnUpload(a, b)
    m.delete([], { folderIds: ['1753946835010000003'] })
    await sim.control.webhooks.idle()
    sim.control.quirks.callbackSizeUnit = 'bytes'

    const bodies = received.slice(from).map((r) => r.body as Record<string, unknown>)
    for (const body of bodies) expectWebhookMatchesSpec(String(body.eventType), body)
    const payloads = bodies.map((x) => x.payload as Record<string, unknown> | undefined)
    expect(payloads.map((p) => p?.source ?? p?.action ?? p?.deleteAction).filter(Boolean)).toEqual(
      expect.arrayContaining([
        'UPLOAD_ASSETS',
        'PENDING_INBOUND_CONFIRM',
        'REPLACE_COVER_ON_UPLOAD',
        'RECYCLE',
      ]),
    )
    expect(bodies.filter((x) => x.folderId === 0).map((x) => x.type)).toEqual(['ADD'])
  })

  test('the suite covered every operation of the spec', () => {
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'post'].includes(k))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    for (const operation of operations) {
      expect(
        [...covered].some((c) => c.startsWith(`${operation} `)),
        operation,
      ).toBe(true)
    }
  })
})
