import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ImpersonationResponse, SpacesResponse, UploadUpdate } from '@service-sdk/demo-web/api'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pattern, startTestDemo } from './helpers.ts'
import { readSse } from './sse.ts'

// The demo server's routes, in process (`app.request()`), on the embedded simulator.

const MAX = 1024 * 1024
const ACME_BRAND = '1753946835010000005'
let demo: Awaited<ReturnType<typeof startTestDemo>>

beforeAll(async () => {
  demo = await startTestDemo({ DEMO_MAX_UPLOAD_BYTES: String(MAX) })
})
afterAll(async () => {
  await demo?.stop()
})

const request = (path: string, init: RequestInit = {}) => demo.app.request(path, init)
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T
const sim = () => demo.simulator!

function upload(
  bytes: Uint8Array | ReadableStream<Uint8Array>,
  query: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return request(`/api/uploads?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      'x-upload-id': `up-${crypto.randomUUID()}`,
      'x-demo-client': 'client-test-1',
      ...headers,
    },
    body: bytes,
    ...(bytes instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit)
}

/** A body without a Content-Length: the cap must hold on the bytes actually read. */
function chunked(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(offset, offset + chunk))
      offset += chunk
    },
  })
}

async function settledEvents() {
  await sim().control.webhooks.idle()
  await demo.receiver.drain()
}

describe('health and readiness', () => {
  test('/healthz is up; /readyz is ready once the subscriptions settled', async () => {
    expect(await json(await request('/healthz'))).toEqual({ status: 'ok' })
    const ready = await request('/readyz')
    expect(ready.status).toBe(200)
    expect(await json(ready)).toEqual({ ready: true, checks: { server: 'ok', subscriptions: 'ok' } })
  })
})

describe('configuration for the page', () => {
  test('says where the selector is and what is subscribed, and holds no key or token', async () => {
    const response = await request('/api/config')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const text = await response.text()
    const info = JSON.parse(text)
    expect(info).toMatchObject({
      mode: 'simulator',
      appUrl: sim().urls.app,
      maxUploadBytes: MAX,
      webhooks: {
        assetEvents: { state: 'active', eventTypes: expect.arrayContaining(['MATERIAL_DELETED']) },
        folders: { state: 'active', folderIds: expect.arrayContaining([ACME_BRAND]) },
      },
    })
    const token = readFileSync(join(demo.dataDir, 'webhook-token'), 'utf8').trim()
    const { teamApiKey, openToken, apiKey } = sim().credentials
    for (const secret of [token, teamApiKey, openToken.value, apiKey]) expect(text).not.toContain(secret)
    expect(info.webhooks.receiverUrl).toMatch(/\/webhooks\/.{4}…$/)
  })
})

describe('team administration', () => {
  test('lists the members', async () => {
    const { members } = await json<{ members: { email: string; id: string }[] }>(
      await request('/api/team/members'),
    )
    expect(members.map((m) => m.email)).toEqual(expect.arrayContaining(['ada@acme.com', 'grace@acme.com']))
    expect(members[0]!.id).toBe('1673603133161799680') // 19 digits, none rounded
  })

  test('creates a member on a whitelisted domain', async () => {
    const response = await post('/api/team/members', { email: 'new.hire@acme.com', password: 's3cret-pass' })
    expect(response.status).toBe(201)
    expect((await json<{ member: object }>(response)).member).toMatchObject({
      email: 'new.hire@acme.com',
      teamId: '1001',
    })
  })

  test('a domain off the whitelist: 403 with the service’s text and the domain', async () => {
    const response = await post('/api/team/members', { email: 'someone@gmail.com' })
    expect(response.status).toBe(403)
    expect(await json(response)).toEqual({
      error: {
        code: 'domain_not_whitelisted',
        status: 403,
        domain: 'gmail.com',
        message: "Email domain 'gmail.com' is not in the team's verified domain whitelist",
      },
    })
  })

  test('bad input is refused before the service is called, per field', async () => {
    const bad = await post('/api/team/members', { email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect((await json<{ error: { code: string; issues: { field: string }[] } }>(bad)).error).toMatchObject({
      code: 'invalid_input',
      issues: [{ field: 'email' }],
    })
    const missing = await post('/api/team/members', {})
    expect(missing.status).toBe(400)
    const notJson = await request('/api/team/members', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    })
    expect((await json<{ error: { message: string } }>(notJson)).error.message).toBe(
      'The request body must be JSON.',
    )
  })

  test('an existing member is a conflict', async () => {
    const response = await post('/api/team/members', { email: 'grace@acme.com' })
    expect(response.status).toBe(409)
    expect((await json<{ error: { code: string } }>(response)).error.code).toBe('conflict')
  })

  test('invites a registered user; an unknown one is not found', async () => {
    const ok = await post('/api/team/invitations', { email: 'margaret@acme.cn' })
    expect(ok.status).toBe(201)
    const unknown = await post('/api/team/invitations', { email: 'nobody@acme.com' })
    expect(unknown.status).toBe(404)
  })

  test('impersonation: the iframe to render, not cached; the login URL only there', async () => {
    const response = await post('/api/team/members/1673603133161799681/impersonation', {})
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json<ImpersonationResponse & { html?: string }>(response)
    expect(body.iframe.src.startsWith(`${sim().urls.base}/auth/impersonation-login?token=`)).toBe(true)
    expect(body.iframe.sandbox).not.toContain('allow-top-navigation')
    expect(body.iframe.referrerPolicy).toBe('no-referrer')
    expect(body.html).toBeUndefined()
    expect(body.expiryHours).toBe(24)
    const page = await fetch(body.iframe.src)
    expect(await page.text()).toContain('Signed in as Grace Hopper')
  })

  test('the login URL is never logged, nor any key or token, over this whole suite so far', () => {
    const { teamApiKey, apiKey, openToken } = sim().credentials
    const secrets = [teamApiKey, apiKey, openToken.value]
    expect(secrets.every((secret) => secret.length >= 8)).toBe(true)
    expect(demo.logged.filter((line) => /impersonation-login|token=/.test(line))).toEqual([])
    expect(demo.logged.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([])
  })

  test('impersonation of a non-member or a bad id', async () => {
    expect((await post('/api/team/members/1673603133161799999/impersonation', {})).status).toBe(404)
    expect((await post('/api/team/members/abc/impersonation', {})).status).toBe(400)
    expect(
      (await post('/api/team/members/1673603133161799681/impersonation', { expiryHours: -1 })).status,
    ).toBe(400)
  })
})

describe('spaces', () => {
  test('the personal space, then the teams, with the write rule applied', async () => {
    const { spaces } = await json<SpacesResponse>(await request('/api/spaces'))
    expect(spaces[0]).toEqual({
      id: '1',
      kind: 'personal',
      name: 'Personal space',
      valid: true,
      writable: true,
    })
    expect(spaces.find((s) => s.id === '1001')).toMatchObject({
      name: 'Acme Design',
      writable: true,
      roleCode: 'owner',
      edition: 'Paid',
    })
    expect(spaces.find((s) => s.id === '1004')).toMatchObject({ valid: false, writable: false })
    expect(spaces.find((s) => s.roleCode === 'member_view')).toMatchObject({
      writable: false,
      readOnlyReason: 'Your role is view-only',
    })
  })
})

describe('uploads through the server (flow 2)', () => {
  test('a streamed body is uploaded with open.upload; progress goes to that page’s stream only', async () => {
    const mine = readSse(await request('/api/stream?client=client-test-1'))
    const theirs = readSse(await request('/api/stream?client=client-other-1'))
    await mine.until((m) => m.event === 'ready')
    await theirs.until((m) => m.event === 'ready')

    const bytes = pattern(700 * 1024)
    const response = await upload(chunked(bytes), {
      name: 'Report.Final.PDF',
      folderId: ACME_BRAND,
      orgId: '1001',
    })
    expect(response.status).toBe(201)
    const { asset } = await json<{
      asset: { id: string; name: string; extension: string; size: number; accessUrl: string }
    }>(response)
    expect(asset).toMatchObject({ name: 'Report.Final', extension: 'pdf', size: bytes.length })
    const served = new Uint8Array(await (await fetch(asset.accessUrl)).arrayBuffer())
    expect(Buffer.from(served).equals(Buffer.from(bytes))).toBe(true)

    const done = await mine.until(
      (m) => m.event === 'upload' && (JSON.parse(m.data) as UploadUpdate).state === 'done',
    )
    expect(JSON.parse(done.data)).toMatchObject({
      state: 'done',
      phase: 'done',
      loaded: bytes.length,
      asset: { id: asset.id },
    })
    // The other page saw no upload of ours: its next message is the next feed event, not an upload.
    const other = await theirs.until((m) => m.event !== 'ready')
    expect(other.event).toBe('feed')
    await mine.close()
    await theirs.close()
  })

  test('into the personal space (the selector’s orgId 1)', async () => {
    const response = await upload(pattern(1000), { name: 'note.txt', orgId: '1' })
    expect(response.status).toBe(201)
    const saved = sim()
      .control.snapshot()
      .materials.find((m) => m.name === 'note')
    expect(saved?.space).toBe('u:1673603133161799680')
  })

  test('the size cap: by Content-Length before reading, and on the bytes read without one', async () => {
    const before = sim().control.snapshot().materials.length
    const declared = await upload(pattern(MAX + 1), { name: 'big.bin', orgId: '1' })
    expect(declared.status).toBe(413)
    expect((await json<{ error: { code: string } }>(declared)).error.code).toBe('too_large')
    const streamed = await upload(chunked(pattern(MAX + 64 * 1024)), { name: 'big.bin', orgId: '1' })
    expect(streamed.status).toBe(413)
    expect(sim().control.snapshot().materials.length).toBe(before)
  })

  test('a space the caller may not write into: 403 before anything is sent', async () => {
    const response = await upload(pattern(1000), { name: 'x.txt', orgId: '1006' })
    expect(response.status).toBe(403)
    expect((await json<{ error: { message: string } }>(response)).error.message).toMatch(/view-only/)
  })

  test('bad requests', async () => {
    expect((await upload(pattern(10), {})).status).toBe(400) // no name
    expect((await upload(pattern(10), { name: 'a.txt', folderId: 'abc' })).status).toBe(400)
    expect((await upload(new Uint8Array(0), { name: 'empty.txt' })).status).toBe(400)
    expect((await upload(pattern(10), { name: 'a.txt' }, { 'x-demo-client': 'x' })).status).toBe(400)
  })

  test('pause and resume: no object request while paused, the page hears it; rate and ETA in the updates', async () => {
    // Slow credentials, so the pause comes before the object is sent.
    sim().control.faults.inject({
      match: { target: 'open', path: 'sts-tmp' },
      action: { type: 'latency', ms: 300 },
    })
    const puts = sim().control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'latency', ms: 0 },
      times: Infinity,
    })
    try {
      const stream = readSse(await request('/api/stream?client=client-test-1'))
      const id = `up-${crypto.randomUUID()}`
      const pending = upload(
        pattern(200 * 1024),
        { name: 'paused.bin', orgId: '1001' },
        { 'x-upload-id': id },
      )
      await stream.until((m) => m.event === 'upload' && JSON.parse(m.data).id === id)
      const path = (action: string) => `/api/uploads/${id}/${action}`
      const as = (client: string) => ({ method: 'POST', headers: { 'x-demo-client': client } })
      expect((await request(path('pause'), as('client-other-1'))).status).toBe(404)
      expect((await request(path('pause'), as('client-test-1'))).status).toBe(204)
      const paused = await stream.until((m) => m.event === 'upload' && JSON.parse(m.data).paused === true)
      expect(JSON.parse(paused.data)).toMatchObject({ id, state: 'running', paused: true, rate: null })
      await new Promise((resolve) => setTimeout(resolve, 600))
      expect(puts.hits).toBe(0)
      expect((await request(path('resume'), as('client-test-1'))).status).toBe(204)
      const response = await pending
      expect(response.status).toBe(201)
      expect(puts.hits).toBe(1)
      const done = await stream.until((m) => m.event === 'upload' && JSON.parse(m.data).state === 'done')
      expect(JSON.parse(done.data)).toMatchObject({ paused: false, etaMs: 0 })
      await stream.close()
      expect((await request(path('resume'), as('client-test-1'))).status).toBe(404)
    } finally {
      sim().control.faults.clear()
    }
  })

  test('cancel: the page’s DELETE aborts the upload; nothing is saved', async () => {
    const before = sim().control.snapshot().materials.length
    const slow = sim().control.faults.inject({
      match: { target: 'oss' },
      action: { type: 'latency', ms: 60_000 },
      times: Infinity,
    })
    try {
      const stream = readSse(await request('/api/stream?client=client-test-1'))
      const id = `up-${crypto.randomUUID()}`
      const pending = upload(pattern(300 * 1024), { name: 'slow.bin', orgId: '1001' }, { 'x-upload-id': id })
      await stream.until((m) => m.event === 'upload' && JSON.parse(m.data).id === id)
      await expect.poll(() => slow.hits).toBeGreaterThan(0)
      // Only the page that started it may cancel it.
      const stranger = await request(`/api/uploads/${id}`, {
        method: 'DELETE',
        headers: { 'x-demo-client': 'client-other-1' },
      })
      expect(stranger.status).toBe(404)
      const cancel = await request(`/api/uploads/${id}`, {
        method: 'DELETE',
        headers: { 'x-demo-client': 'client-test-1' },
      })
      expect(cancel.status).toBe(204)
      const response = await pending
      expect(response.status).toBe(499)
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe('cancelled')
      const last = await stream.until((m) => m.event === 'upload' && JSON.parse(m.data).state !== 'running')
      expect(JSON.parse(last.data).state).toBe('cancelled')
      await stream.close()
    } finally {
      slow.remove()
    }
    expect(sim().control.snapshot().materials.length).toBe(before)
  })
})

describe('webhooks and the event feed', () => {
  test('a wrong token is a 404, like any unknown URL', async () => {
    const response = await request('/webhooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAA', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"eventId":"x","eventType":"MATERIAL_DELETED","eventTime":"1","payload":{}}',
    })
    expect(response.status).toBe(404)
  })

  test('callbacks and asset events of an upload reach /api/events, then the stream replays only newer ones', async () => {
    const response = await upload(pattern(2000), { name: 'feed.png', folderId: ACME_BRAND, orgId: '1001' })
    expect(response.status).toBe(201)
    await settledEvents()
    const { events } = await json<{
      events: { seq: number; eventType: string; summary: string; event: unknown }[]
    }>(await request('/api/events'))
    const folder = events.find(
      (e) => e.eventType === 'FOLDER_CONTENT_UPDATE' && e.summary.includes('feed.png'),
    )
    expect(folder?.summary).toBe(`ADD in folder ${ACME_BRAND}: feed.png`)
    expect(events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining(['MATERIAL_INBOUND_COMPLETED', 'MATERIAL_ADDED_TO_FOLDER']),
    )

    // Into a space's root (no folderId): the root folder (0) is watched too, so its callback comes.
    expect((await upload(pattern(1000), { name: 'root.png' })).status).toBe(201)
    await settledEvents()
    const after = await json<{ events: { seq: number; eventType: string; summary: string }[] }>(
      await request('/api/events'),
    )
    expect(
      after.events.find((e) => e.eventType === 'FOLDER_CONTENT_UPDATE' && e.summary.includes('root.png'))
        ?.summary,
    ).toBe('ADD in folder 0: root.png')

    const last = after.events.at(-1)!.seq
    const stream = readSse(
      await request('/api/stream?client=client-test-2', { headers: { 'last-event-id': String(last - 1) } }),
    )
    const first = await stream.next()
    expect(first).toMatchObject({ event: 'feed', id: String(last) })
    expect((await stream.next()).event).toBe('ready')
    await stream.close()
  })
})

describe('guards', () => {
  test('the page and its API answer only known host names; webhooks and health answer any', async () => {
    const evil = { host: 'rebind.attacker.example' }
    expect((await request('/api/team/members', { headers: evil })).status).toBe(421)
    expect((await request('/', { headers: evil })).status).toBe(421)
    expect((await request('/healthz', { headers: evil })).status).toBe(200)
  })

  test('state changes only from this origin', async () => {
    const other = await post('/api/team/members', { email: 'x@acme.com' }, { origin: 'https://evil.example' })
    expect(other.status).toBe(403)
    const opaque = await post('/api/team/members', { email: 'x@acme.com' }, { origin: 'null' })
    expect(opaque.status).toBe(403)
  })

  test('unknown API routes are JSON 404s', async () => {
    const response = await request('/api/nothing')
    expect(response.status).toBe(404)
    expect((await json<{ error: { code: string } }>(response)).error.code).toBe('not_found')
  })
})

describe('the page', () => {
  test('index.html with a strict CSP that frames only the selector app and the login', async () => {
    const response = await request('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain(`frame-src ${new URL(sim().urls.app).origin}`)
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
  })

  test('no file outside the build is served', async () => {
    expect((await request('/..%2f..%2fpackage.json')).status).toBe(404)
    expect((await request('/assets/%2e%2e/%2e%2e/package.json')).status).toBe(404)
    expect((await request('/nope.js')).status).toBe(404)
  })
})
