import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { silentLogger } from '@service-sdk/core/internal'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver, type TestReceiver } from '../../test/support/receiver.ts'
import { createFaults } from '../control/faults.ts'
import { createSimulatorApp } from '../host/app.ts'
import type { SavedMaterial, SimContext } from '../model/context.ts'
import { defaultSeed } from '../model/seed.ts'
import { BUCKET, createState } from '../model/state.ts'
import { fileRoutes } from '../open/asset-files.ts'
import { memoryObjectStore } from '../oss/index.ts'
import { selectorRoutes } from './routes.ts'

const ORIGIN = 'http://sim.test'
const ADA = '1673603133161799680'
const ACME_CAMPAIGNS = '1753946835010000001'
const GLOBEX_CAMPAIGNS = '1753946835020000001'
const HOOLI_BRAND = '1753946835050000005'
const STARK_BRAND = '1753946835060000005'
const MY_DRAFTS = '1753946835000000004'
const ALL_BYTES = new Uint8Array(256).map((_, i) => i)

type Fetch = (request: Request) => Promise<Response>

function upload(
  fetch: Fetch,
  query: Record<string, string>,
  body: BodyInit | null = 'hello',
  headers: Record<string, string> = {},
) {
  return fetch(
    new Request(`${ORIGIN}/outer/api/upload?${new URLSearchParams(query)}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain', ...headers },
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  )
}

function uploadUrl(fetch: Fetch, body: unknown, headers: Record<string, string> = {}) {
  return fetch(
    new Request(`${ORIGIN}/outer/api/upload-url`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  )
}

async function refusal(response: Response) {
  return { status: response.status, error: ((await response.json()) as { error: string }).error }
}

/** A body of `chunks` chunks of `size` bytes each, with no announced length. */
function stream(chunks: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent++ === chunks) controller.close()
      else controller.enqueue(new Uint8Array(size).fill(7))
    },
  })
}

/**
 * The selector routes over a context whose store and events the test can see, with a small size
 * limit (the default app's is 256 MiB).
 */
function smallSim(maxUploadBytes = 1000) {
  const saved: Array<{ materials: SavedMaterial[]; userId: string }> = []
  const sim: SimContext = {
    state: createState(defaultSeed()),
    store: memoryObjectStore(),
    faults: createFaults(),
    events: { materialsSaved: (materials, userId) => void saved.push({ materials, userId }) },
    quirks: { successCode: '0', bareEventTypes: false, selectorFamily: 'both' },
    now: Date.now,
    ossEndpoint: () => 'http://127.0.0.1:1',
    publicOrigin: () => ORIGIN,
    stsTtlMs: 3_600_000,
    logger: silentLogger,
  }
  const app = new Hono()
  app.route('/outer', selectorRoutes(sim, { maxUploadBytes }))
  app.route('/files', fileRoutes(sim))
  return {
    sim,
    saved,
    fetch: async (request: Request) => app.fetch(request),
    objects: () => sim.store.list({ bucket: BUCKET }),
  }
}

describe('POST /outer/api/upload', () => {
  it('stores the bytes under the caller upload dir, saves the asset in the personal root; its accessUrl serves the exact bytes', async () => {
    const app = createSimulatorApp()
    const response = await upload(
      app.fetch,
      { orgId: '1', folderId: '0', name: 'all bytes.v2.bin', link: 'https://example.com/post/1' },
      ALL_BYTES,
      { 'content-type': 'application/octet-stream' },
    )
    expect(response.status).toBe(201)
    const { material } = (await response.json()) as { material: Record<string, unknown> }
    expect(material).toMatchObject({
      name: 'all bytes.v2',
      extension: 'bin',
      size: 256,
      folderId: '0',
      orgId: '1',
    })
    expect(material.id).toMatch(/^\d{19}$/)
    const [saved, ...others] = app.control.snapshot().materials
    expect(others).toEqual([])
    expect(saved).toMatchObject({
      id: material.id,
      space: `u:${ADA}`,
      folderId: '0',
      name: 'all bytes.v2',
      extension: 'bin',
      size: 256,
      link: 'https://example.com/post/1',
      ownerUserId: ADA,
    })
    expect(saved?.key).toMatch(new RegExp(`^upload/${ADA}/selector/[0-9a-f-]{36}\\.bin$`))
    expect(material.accessUrl).toBe(`${ORIGIN}/files/${material.id}/all%20bytes.v2.bin`)
    const file = await app.fetch(new Request(material.accessUrl as string))
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(ALL_BYTES)
  })

  it('uploads into team folders where the caller may write (owner, admin, upload role)', async () => {
    const app = createSimulatorApp()
    for (const [orgId, folderId] of [
      ['1001', ACME_CAMPAIGNS],
      ['1002', GLOBEX_CAMPAIGNS],
      ['1005', HOOLI_BRAND],
      ['1001', '0'],
      ['1', MY_DRAFTS],
    ] as const) {
      const response = await upload(app.fetch, { orgId, folderId, name: `to-${folderId}.txt` })
      expect(response.status, `${orgId}/${folderId}`).toBe(201)
    }
    expect(app.control.snapshot().materials.map((m) => [m.space, m.folderId])).toEqual([
      ['t:1001', ACME_CAMPAIGNS],
      ['t:1002', GLOBEX_CAMPAIGNS],
      ['t:1005', HOOLI_BRAND],
      ['t:1001', '0'],
      [`u:${ADA}`, MY_DRAFTS],
    ])
  })

  it('refuses view-only, expired and foreign spaces with 403; nothing is stored or saved', async () => {
    const { fetch, objects, saved } = smallSim()
    const cases = [
      [
        { orgId: '1006', folderId: STARK_BRAND },
        /Stark Library \(view-only role, or the space has expired\)/,
      ],
      [{ orgId: '1006', folderId: '0' }, /view-only/],
      [{ orgId: '1004', folderId: '0' }, /Umbrella Archive/],
      [{ orgId: '4242', folderId: '0' }, /not a member of space 4242/],
    ] as const
    for (const [target, message] of cases) {
      const response = await upload(fetch, { ...target, name: 'a.txt' })
      const { status, error } = await refusal(response)
      expect(status, JSON.stringify(target)).toBe(403)
      expect(error).toMatch(message)
    }
    expect(await objects()).toEqual([])
    expect(saved).toEqual([])
  })

  it('refuses folders of another space and unknown folders with 404', async () => {
    const app = createSimulatorApp()
    for (const target of [
      { orgId: '1', folderId: ACME_CAMPAIGNS },
      { orgId: '1001', folderId: MY_DRAFTS },
      { orgId: '1001', folderId: '999' },
    ]) {
      const { status, error } = await refusal(await upload(app.fetch, { ...target, name: 'a.txt' }))
      expect(status).toBe(404)
      expect(error).toContain(`Folder ${target.folderId} not found`)
    }
    expect(app.control.snapshot().materials).toEqual([])
  })

  it('answers bad input with a clear 400', async () => {
    const app = createSimulatorApp()
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ folderId: '0', name: 'a.txt' }, /orgId is required/],
      [{ orgId: 'acme', folderId: '0', name: 'a.txt' }, /orgId must be an integer id/],
      [{ orgId: '1', folderId: '-1', name: 'a.txt' }, /folderId must be an integer id/],
      [{ orgId: '1', folderId: '12345678901234567890', name: 'a.txt' }, /folderId must be an integer id/],
      [{ orgId: '1', folderId: '0' }, /name \(the file name\) is required/],
      [{ orgId: '1', folderId: '0', name: '../etc/passwd' }, /slashes/],
      [{ orgId: '1', folderId: '0', name: 'a\\b.txt' }, /backslashes/],
      [{ orgId: '1', folderId: '0', name: 'a\r\nb.txt' }, /control characters/],
      [{ orgId: '1', folderId: '0', name: '..' }, /must be a file name/],
      [{ orgId: '1', folderId: '0', name: `${'x'.repeat(300)}.txt` }, /longer than 255/],
      [
        { orgId: '1', folderId: '0', name: 'a.txt', link: 'javascript:alert(1)' },
        /link must be an http\(s\) URL/,
      ],
    ]
    for (const [query, message] of cases) {
      const { status, error } = await refusal(await upload(app.fetch, query))
      expect(status, JSON.stringify(query)).toBe(400)
      expect(error).toMatch(message)
    }
    expect(app.control.snapshot().materials).toEqual([])
  })

  it('names without an extension, and empty files, are fine', async () => {
    const app = createSimulatorApp()
    const response = await upload(app.fetch, { orgId: '1', folderId: '0', name: 'README' }, null)
    expect(response.status).toBe(201)
    expect(app.control.snapshot().materials[0]).toMatchObject({ name: 'README', extension: '', size: 0 })
  })

  it('refuses an announced length over the limit with 413 before reading (the default limit is 256 MiB)', async () => {
    const app = createSimulatorApp()
    const { status, error } = await refusal(
      await upload(app.fetch, { orgId: '1', folderId: '0', name: 'big.bin' }, 'small', {
        'content-length': String(256 * 1024 * 1024 + 1),
      }),
    )
    expect(status).toBe(413)
    expect(error).toContain('the limit is 268435456 bytes')
    expect(app.control.snapshot().materials).toEqual([])
  })

  it('refuses a streamed body that grows past the limit with 413 and keeps nothing of it', async () => {
    const { fetch, objects, saved } = smallSim(1000)
    const ok = await upload(fetch, { orgId: '1', folderId: '0', name: 'fits.bin' }, stream(10, 100))
    expect(ok.status).toBe(201)
    const { status, error } = await refusal(
      await upload(fetch, { orgId: '1', folderId: '0', name: 'big.bin' }, stream(11, 100)),
    )
    expect(status).toBe(413)
    expect(error).toContain('larger than the limit of 1000 bytes')
    expect((await objects()).map((o) => o.size)).toEqual([1000])
    expect(saved).toHaveLength(1)
  })

  it('goes through material-save: the asset events of the open API fire, once per upload', async () => {
    const { fetch, saved } = smallSim()
    const response = await upload(fetch, { orgId: '1001', folderId: ACME_CAMPAIGNS, name: 'a.txt' })
    expect(response.status).toBe(201)
    expect(saved).toHaveLength(1)
    expect(saved[0]?.userId).toBe(ADA)
    expect(saved[0]?.materials).toMatchObject([
      { space: 't:1001', folderId: ACME_CAMPAIGNS, name: 'a', extension: 'txt' },
    ])
  })

  it('accepts the page itself only: cross-origin browser requests get 403', async () => {
    const app = createSimulatorApp()
    const target = { orgId: '1', folderId: '0', name: 'a.txt' }
    for (const headers of [
      { origin: 'http://evil.test' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const { status, error } = await refusal(await upload(app.fetch, target, 'x', headers))
      expect(status).toBe(403)
      expect(error).toContain('selector page itself only')
    }
    const own = await upload(app.fetch, target, 'x', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' })
    expect(own.status).toBe(201)
    expect(app.control.snapshot().materials).toHaveLength(1)
  })
})

describe('POST /outer/api/upload-url', () => {
  let server: Server
  let base: string
  let requests: string[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '')
      if (req.url === '/images/a%20b.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '256' })
        res.end(Buffer.from(ALL_BYTES))
      } else if (req.url === '/render?id=1') {
        res.writeHead(200, { 'content-type': 'image/jpeg' })
        res.end('jpeg')
      } else if (req.url === '/announced-big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5000' })
        res.end(Buffer.alloc(5000))
      } else if (req.url === '/streamed-big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        for (let i = 0; i < 20; i++) res.write(Buffer.alloc(100))
        res.end()
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/images/a%20b.png' })
        res.end()
      } else {
        res.writeHead(404)
        res.end('no')
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('fetches an http address server-side and saves it into the chosen folder, name from the path', async () => {
    const app = createSimulatorApp()
    const response = await uploadUrl(app.fetch, {
      url: `${base}/images/a%20b.png`,
      orgId: '1001',
      folderId: ACME_CAMPAIGNS,
      link: 'https://example.com/gallery',
    })
    expect(response.status).toBe(201)
    const { material } = (await response.json()) as { material: { accessUrl: string } }
    expect(app.control.snapshot().materials[0]).toMatchObject({
      name: 'a b',
      extension: 'png',
      size: 256,
      space: 't:1001',
      folderId: ACME_CAMPAIGNS,
      link: 'https://example.com/gallery',
    })
    const file = await app.fetch(new Request(material.accessUrl))
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(ALL_BYTES)
  })

  it('follows redirects; a path without a file name gets one from the content type; ids may be numbers', async () => {
    const app = createSimulatorApp()
    expect((await uploadUrl(app.fetch, { url: `${base}/moved`, orgId: 1, folderId: 0 })).status).toBe(201)
    expect(
      (await uploadUrl(app.fetch, { url: `${base}/render?id=1`, orgId: '1', folderId: '0' })).status,
    ).toBe(201)
    // `render` has no extension of its own and the address names none: the asset keeps none.
    expect(app.control.snapshot().materials.map((m) => [m.name, m.extension, m.size])).toEqual([
      ['a b', 'png', 256],
      ['render', '', 4],
    ])
  })

  it('refuses non-http(s) and malformed addresses with 400 without fetching anything', async () => {
    const app = createSimulatorApp()
    requests = []
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/a.png',
      'data:text/plain,hi',
      'not a url',
      42,
      `http://user:pw@127.0.0.1/a.png`,
    ]) {
      const { status, error } = await refusal(await uploadUrl(app.fetch, { url, orgId: '1', folderId: '0' }))
      expect(status, String(url)).toBe(400)
      expect(error).toMatch(/url must/)
    }
    expect(requests).toEqual([])
  })

  it('checks the write rule before fetching: a view-only space is refused and the address never requested', async () => {
    const app = createSimulatorApp()
    requests = []
    const { status } = await refusal(
      await uploadUrl(app.fetch, { url: `${base}/images/a%20b.png`, orgId: '1006', folderId: '0' }),
    )
    expect(status).toBe(403)
    expect(requests).toEqual([])
  })

  it('an address that fails is a 502 naming it', async () => {
    const app = createSimulatorApp()
    const { status, error } = await refusal(
      await uploadUrl(app.fetch, { url: `${base}/gone`, orgId: '1', folderId: '0' }),
    )
    expect(status).toBe(502)
    expect(error).toBe(`Fetching ${base}/gone answered HTTP 404`)
    const closed = await refusal(
      await uploadUrl(app.fetch, { url: 'http://127.0.0.1:1/a.png', orgId: '1', folderId: '0' }),
    )
    expect(closed).toEqual({ status: 502, error: 'Fetching http://127.0.0.1:1/a.png failed' })
  })

  it('caps what it fetches, announced or streamed, with 413', async () => {
    const { fetch, objects } = smallSim(1000)
    for (const path of ['/announced-big', '/streamed-big']) {
      const { status, error } = await refusal(
        await uploadUrl(fetch, { url: `${base}${path}`, orgId: '1', folderId: '0' }),
      )
      expect(status, path).toBe(413)
      expect(error).toMatch(/limit/)
    }
    expect(await objects()).toEqual([])
  })

  it('wants a JSON body, of reasonable size', async () => {
    const app = createSimulatorApp()
    const wrongType = await app.fetch(
      new Request(`${ORIGIN}/outer/api/upload-url`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      }),
    )
    expect(await refusal(wrongType)).toEqual({ status: 400, error: 'Content-Type must be application/json' })
    const malformed = await app.fetch(
      new Request(`${ORIGIN}/outer/api/upload-url`, {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
    )
    expect(await refusal(malformed)).toEqual({ status: 400, error: 'Malformed JSON body' })
    expect((await refusal(await uploadUrl(app.fetch, { url: 'x'.repeat(20_000) }))).status).toBe(413)
  })
})

describe('callbacks and webhooks', () => {
  let receiver: TestReceiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  it('an upload through the page is announced to subscribers as an open-API upload is', async () => {
    const app = createSimulatorApp({ webhooks: { retry: { initialDelayMs: 5 } } })
    const apiKey = app.control.snapshot().apiKeys[0]?.key
    const subscribe = (path: string, body: string) =>
      app.fetch(
        new Request(`${ORIGIN}/api/service/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body,
        }),
      )
    await subscribe(
      'folder-subscribe',
      `{"folderIds":[${ACME_CAMPAIGNS}],"callbackUrl":"${receiver.url}/folder"}`,
    )
    await subscribe(
      'material-automation-subscribe',
      JSON.stringify({ callbackUrl: `${receiver.url}/events`, eventTypes: ['MATERIAL_INBOUND_COMPLETED'] }),
    )
    const response = await upload(app.fetch, { orgId: '1001', folderId: ACME_CAMPAIGNS, name: 'a.txt' })
    expect(response.status).toBe(201)
    await app.control.webhooks.idle()
    app.close()
    const folder = receiver.received.filter((r) => r.path === '/folder')
    const events = receiver.received.filter((r) => r.path === '/events')
    expect(folder).toHaveLength(1)
    expect(folder[0]?.body).toMatchObject({ type: 'ADD', folderId: ACME_CAMPAIGNS })
    expect(events).toHaveLength(1)
    expect(events[0]?.body).toMatchObject({ eventType: 'MATERIAL_INBOUND_COMPLETED' })
    expect([...folder, ...events].flatMap((r) => r.schemaIssues)).toEqual([])
  })
})
