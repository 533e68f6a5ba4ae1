import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type SavedMaterial,
  ServiceAuthenticationError,
  ServicePermissionError,
  ServiceValidationError,
} from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'
import { createUploadProxy, type UploadProxy, type UploadProxyOptions } from '../src/proxy/index.ts'
import { rawOss, rejection, servedHash, sha256 } from './upload/helpers.ts'

// The upload proxy through its public entry, against the simulator, driven with Web Requests as
// any framework would; and the browser-side client (`createOpenClient({ proxyUrl })`) through it,
// uploading to the simulator's object store with the URLs the proxy signed. The attacks of one
// caller on another's objects are in proxy-attacks.test.ts.

const BASE = 'http://app.test/api/upload'
const CALL = `${BASE}/open-api/standard/call/service`
const SIGN = `${BASE}/oss/sign`
const SESSIONS: Record<string, { id: string; orgIds?: string[] }> = {
  'alice-session': { id: 'alice' },
  'bob-session': { id: 'bob' },
  'carol-session': { id: 'carol', orgIds: [] },
}

let sim: RunningSimulator
let proxy: UploadProxy
const authorized: string[] = []

function makeProxy(overrides: Partial<UploadProxyOptions> = {}): UploadProxy {
  return createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    retry: { maxRetries: 0 },
    authorize: (request) => {
      const session = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
      authorized.push(session)
      if (session === 'banned-session') throw new Error('banned user')
      return SESSIONS[session] ?? false
    },
    allowedOrigins: ['http://page.test'],
    ...overrides,
  })
}

/** Counts the requests that reached the simulator's open API. */
function serviceCalls() {
  const handle = sim.control.faults.inject({
    match: { target: 'open' },
    action: { type: 'latency', ms: 0 },
    times: Infinity,
  })
  return { count: () => handle.hits, done: () => handle.remove() }
}

const post = (
  path: string,
  session: string | undefined,
  body?: unknown,
  p: UploadProxy = proxy,
  headers: Record<string, string> = {},
) =>
  p(
    new Request(path === 'oss/sign' ? SIGN : `${CALL}/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(session ? { authorization: `Bearer ${session}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    }),
  )

/** The caller's directory, as the proxy tells it (a sign call with no request). */
async function dirOf(session: string, p: UploadProxy = proxy): Promise<string> {
  const answer = await post('oss/sign', session, { requests: [] }, p)
  return (await answer.json()).result.dir
}

/** The browser-side client, its requests handed to the proxy as Web Requests. */
function browserClient(session: string, p: UploadProxy = proxy) {
  return createOpenClient({
    proxyUrl: BASE,
    headers: () => ({ Authorization: `Bearer ${session}` }),
    fetch: async (input, init) => p(new Request(input, init)),
    retry: { maxRetries: 0 },
  })
}

beforeAll(async () => {
  sim = await startSimulator()
  proxy = makeProxy()
})

afterAll(async () => {
  await sim?.stop()
})

describe('authorize comes first', () => {
  test('no session: 401 and nothing sent to the service; a hook that throws: 403, its reason kept to the server', async () => {
    const calls = serviceCalls()
    const unsigned = await post('oss/sign', undefined, { requests: [] })
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ code: 'unauthorized' })
    const banned = await post('material-save', 'banned-session', { materials: [] })
    expect(banned.status).toBe(403)
    const text = await banned.text()
    expect(JSON.parse(text)).toMatchObject({ code: 'forbidden' })
    expect(text).not.toContain('banned user')
    expect(calls.count()).toBe(0)
    calls.done()
  })

  test('the browser client reads the refusals as typed errors', async () => {
    expect(await rejection(browserClient('nobody').orgs())).toBeInstanceOf(ServiceAuthenticationError)
    expect(await rejection(browserClient('banned-session').orgs())).toBeInstanceOf(ServicePermissionError)
  })

  test('a CORS preflight from an allowed origin is answered without authorize; another origin gets no grant', async () => {
    const before = authorized.length
    const preflight = (origin: string) =>
      proxy(
        new Request(SIGN, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        }),
      )
    const allowed = await preflight('http://page.test')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://page.test')
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
    expect((await preflight('http://evil.test')).headers.get('access-control-allow-origin')).toBeNull()
    expect(authorized.length).toBe(before)
  })
})

describe('what the proxy answers', () => {
  test('sts-tmp is not answered: the proxy never hands a browser a credential (404, nothing sent to the service)', async () => {
    const calls = serviceCalls()
    const answer = await post('sts-tmp', 'alice-session')
    expect(answer.status).toBe(404)
    const text = await answer.text()
    expect(JSON.parse(text)).toMatchObject({ code: 'not_found' })
    expect(text).not.toMatch(/accessKeySecret|securityToken/)
    expect(calls.count()).toBe(0)
    calls.done()
    expect('credentials' in browserClient('alice-session')).toBe(false)
  })

  test("oss/sign with no request: where the caller's objects go (its own directory), no secret, not cacheable", async () => {
    const answer = await post('oss/sign', 'alice-session', { requests: [] })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    const text = await answer.text()
    const body = JSON.parse(text)
    expect(body.code).toBe('0')
    expect(Object.keys(body.result).sort()).toEqual(['bucket', 'dir', 'endPoint', 'expires', 'signed'])
    expect(body.result.dir).toMatch(/^upload\/[^/]+\/u[\w-]{22}\/$/)
    expect(await dirOf('bob-session')).not.toBe(body.result.dir)
    expect(text).not.toContain(sim.credentials.openToken.value)
  })

  test("oss/sign: each request of an upload in the caller's directory, signed in its URL for minutes; no secret in the answer", async () => {
    const dir = await dirOf('alice-session')
    const key = `${dir}k/photo.png`
    const requests = [
      { op: 'PutObject', key },
      { op: 'InitiateMultipartUpload', key },
      { op: 'UploadPart', key, uploadId: 'U1', partNumber: 2 },
      { op: 'CompleteMultipartUpload', key, uploadId: 'U1' },
      { op: 'ListParts', key, uploadId: 'U1', query: { 'max-parts': 1000, 'part-number-marker': '2' } },
      { op: 'AbortMultipartUpload', key, uploadId: 'U1' },
      { op: 'HeadObject', key },
    ]
    const answer = await post('oss/sign', 'alice-session', { requests })
    expect(answer.status).toBe(200)
    const { result } = await answer.json()
    const now = Date.now() / 1000
    expect(result.expires).toBeGreaterThan(now + 240)
    expect(result.expires).toBeLessThanOrEqual(now + 301)
    const urls = result.signed.map((s: { url: string }) => new URL(s.url))
    expect(urls.map((u: URL) => decodeURIComponent(u.pathname).endsWith('k/photo.png'))).toEqual(
      requests.map(() => true),
    )
    for (const url of urls) {
      expect(url.searchParams.get('Expires')).toBe(String(result.expires))
      expect(url.searchParams.get('Signature')).toBeTruthy()
    }
    expect(urls[2].searchParams.get('partNumber')).toBe('2')
    expect(urls[4].searchParams.get('part-number-marker')).toBe('2')
    expect(result.signed[0].headers).toEqual({ 'Content-Type': 'image/png' })
    expect(result.signed[3].headers).toEqual({ 'Content-Type': 'application/xml' })
    const { credentials } = createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })
    const secret = (await credentials()).accessKeySecret
    expect(JSON.stringify(result)).not.toContain(secret)
  })

  test('oss/sign refuses, before signing anything, what an upload does not need or is malformed', async () => {
    const dir = await dirOf('alice-session')
    const key = `${dir}k/a.txt`
    const refused = async (request: object) => {
      const answer = await post('oss/sign', 'alice-session', {
        requests: [{ op: 'PutObject', key }, request],
      })
      const body = await answer.json()
      expect(body.result, JSON.stringify(request)).toBeUndefined()
      return {
        status: answer.status,
        code: body.code,
        paths: body.issues.map((i: { path: string }) => i.path),
      }
    }
    for (const op of [
      'DeleteObject',
      'GetObject',
      'ListMultipartUploads',
      'ListObjects',
      'CopyObject',
      'PutObjectACL',
    ])
      expect(await refused({ op, key })).toEqual({
        status: 400,
        code: 'validation_error',
        paths: ['requests.1.op'],
      })
    expect(await refused({ op: 'UploadPart', key, uploadId: 'U1', partNumber: 0 })).toMatchObject({
      paths: ['requests.1.partNumber'],
    })
    expect(await refused({ op: 'UploadPart', key, partNumber: 1 })).toMatchObject({
      paths: ['requests.1.uploadId'],
    })
    expect(await refused({ op: 'ListParts', key, uploadId: 'U1', query: { prefix: '' } })).toMatchObject({
      paths: ['requests.1.query.prefix'],
    })
    expect(await refused({ op: 'PutObject', key: `${dir}../x` })).toMatchObject({ paths: ['requests.1.key'] })
    expect(await refused({ op: 'PutObject', key: `${dir}half\ud800.bin` })).toMatchObject({
      status: 400,
      paths: ['requests.1.key'],
    })
    expect(await refused({ op: 'PutObject', key, type: 'text/html\r\nx-oss-acl: public' })).toMatchObject({
      paths: ['requests.1.type'],
    })
    const many = Array.from({ length: 101 }, () => ({ op: 'PutObject', key }))
    expect((await post('oss/sign', 'alice-session', { requests: many })).status).toBe(400)
    // Fields an operation does not take are not passed on: no method, header or sub-resource of the caller's.
    const extra = await post('oss/sign', 'alice-session', {
      requests: [
        { op: 'HeadObject', key, method: 'GET', subresource: 'acl', headers: { 'x-oss-acl': 'public' } },
      ],
    })
    const signed = new URL((await extra.json()).result.signed[0].url)
    expect([...signed.searchParams.keys()].sort()).toEqual([
      'Expires',
      'OSSAccessKeyId',
      'Signature',
      'security-token',
    ])
  })

  test('cross-site requests are refused before authorize: a text/plain or form body, a foreign Origin, a cross-site fetch', async () => {
    const before = authorized.length
    const body = { requests: [] }
    expect(
      (await post('oss/sign', 'alice-session', body, proxy, { 'content-type': 'text/plain' })).status,
    ).toBe(415)
    const form = await post('oss/sign', 'alice-session', 'requests=', proxy, {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(form.status).toBe(415)
    const foreign = await post('oss/sign', 'alice-session', body, proxy, { origin: 'http://evil.test' })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ code: 'origin_not_allowed' })
    const sameHostOtherPort = await post('material-save', 'alice-session', { materials: [] }, proxy, {
      origin: 'http://app.test:8080',
    })
    expect(sameHostOtherPort.status).toBe(403)
    const crossSite = await post('oss/sign', 'alice-session', body, proxy, { 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBe(403)
    expect(authorized.length).toBe(before)
    // The proxy's own origin, an allowed one, and a request without browser headers pass.
    expect((await post('oss/sign', 'alice-session', body, proxy, { origin: 'http://app.test' })).status).toBe(
      200,
    )
    expect(
      (await post('oss/sign', 'alice-session', body, proxy, { origin: 'http://page.test' })).status,
    ).toBe(200)
    const behindProxy = await post('oss/sign', 'alice-session', body, proxy, {
      origin: 'https://shop.example',
      'x-forwarded-host': 'shop.example',
    })
    expect(behindProxy.status).toBe(200)
    expect(
      (await post('oss/sign', 'alice-session', body, proxy, { 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(200)
  })

  test('org-info: the spaces of the token, narrowed to the caller’s orgIds when given', async () => {
    const all = await browserClient('alice-session').orgs()
    expect(all.length).toBeGreaterThan(0)
    expect(await browserClient('carol-session').orgs()).toEqual([])
  })

  test('unknown paths 404, other methods 405, bodies over the cap 413: none reaches the service', async () => {
    const calls = serviceCalls()
    expect(
      (
        await proxy(
          new Request(`${BASE}/open-api/standard/call/service/folder-subscribe`, { method: 'POST' }),
        )
      ).status,
    ).toBe(404)
    expect((await proxy(new Request(`${CALL}/org-info`, { method: 'GET' }))).status).toBe(405)
    const small = makeProxy({ maxBodyBytes: 2048 })
    const big = await post('material-save', 'alice-session', 'x'.repeat(4096), small)
    expect(big.status).toBe(413)
    expect(calls.count()).toBe(0)
    calls.done()
  })

  test("the server's token refused by the service: 502 upstream_rejected, no detail or token for the browser", async () => {
    const logs: string[] = []
    const broken = makeProxy({
      token: { type: sim.credentials.openToken.type, value: 'not-the-token-0123456789' },
      logger: { error: (message, fields) => logs.push(`${message} ${JSON.stringify(fields)}`) },
    })
    const answer = await post('oss/sign', 'alice-session', { requests: [] }, broken)
    expect(answer.status).toBe(502)
    const text = await answer.text()
    expect(JSON.parse(text)).toMatchObject({ code: 'upstream_rejected' })
    expect(text).not.toContain('not-the-token')
    expect(logs.join('\n')).toMatch(/invalid token/)
    expect(logs.join('\n')).not.toContain('not-the-token-0123456789')
  })
})

describe('uploads through the proxy', () => {
  test('the browser-side client uploads: signatures and save through the proxy, the accessUrl the service’s', async () => {
    const bytes = new Uint8Array(200 * 1024).map((_, i) => (i * 7) % 251)
    const asset = await browserClient('alice-session')
      .upload(new Blob([bytes]), { name: 'report', extension: 'bin' })
      .done()
    expect(asset).toMatchObject({ name: 'report', extension: 'bin', size: bytes.length })
    expect(new URL(asset.accessUrl).origin).toBe(new URL(sim.urls.open).origin)
    expect(asset.key).toMatch(/^upload\/[^/]+\/u[\w-]{22}\//)
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
  })

  test('a material-save the service acted on, its answer cut: the proxy sends it once, and the asset exists once', async () => {
    const cut = sim.control.faults.inject({
      match: { target: 'open', path: 'material-save' },
      action: { type: 'reset' },
      when: 'after',
    })
    try {
      const upload = browserClient('alice-session').upload(new Blob(['once']), {
        name: 'once',
        extension: 'txt',
      })
      const failure = await rejection(upload.done())
      expect(failure).toMatchObject({ name: 'UploadError', code: 'save_outcome_unknown' })
      // The proxy's own retries (on by default) did not send it again: one asset under the key.
      expect(cut.hits).toBe(1)
      expect(sim.control.snapshot().materials.filter((m) => m.key === upload.key)).toHaveLength(1)
    } finally {
      cut.remove()
    }
  })

  test("a key outside the caller's directory is refused before the service: another caller's, or the bare STS dir", async () => {
    const bobs = await browserClient('bob-session')
      .upload(new Blob(['bob']), { name: 'bob', extension: 'txt' })
      .done()
    const calls = serviceCalls()
    const alice = browserClient('alice-session')
    const material = (key: string) => ({ key, name: 'x', extension: 'txt', size: 3 })
    const error = await rejection(alice.materials.save({ materials: [material(bobs.key)] }))
    expect(error).toBeInstanceOf(ServicePermissionError)
    expect(error).toMatchObject({ code: 'outside_upload_dir', status: 403 })
    const bare = bobs.key.replace(/u[\w-]{22}\//, '')
    const raw = await post('material-save', 'alice-session', { param: { materials: [material(bare)] } })
    expect(raw.status).toBe(403)
    expect(await raw.json()).toMatchObject({ issues: [{ path: 'materials.0.key' }] })
    expect(calls.count()).toBe(0)
    calls.done()
  })

  test('the save body is validated: not JSON, no materials, over 100 materials, a space the caller may not use', async () => {
    const dir = await dirOf('alice-session')
    const calls = serviceCalls()
    expect((await post('material-save', 'alice-session', '{not json')).status).toBe(400)
    const empty = await post('material-save', 'alice-session', { materials: [] })
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ code: 'validation_error', issues: [{ path: 'materials' }] })
    const many = Array.from({ length: 101 }, (_, i) => ({
      key: `${dir}${i}`,
      name: `${i}`,
      extension: 'txt',
      size: 1,
    }))
    expect((await post('material-save', 'alice-session', { materials: many })).status).toBe(400)
    const carol = await rejection(
      browserClient('carol-session').materials.save({
        orgId: '1001',
        materials: [{ key: `${dir}x`, name: 'x', extension: 'txt', size: 1 }],
      }),
    )
    // carol's directory is not alice's either: the key check comes first.
    expect(carol).toMatchObject({ status: 403 })
    expect(calls.count()).toBe(0)
    calls.done()
  })

  test('a caller limited to some spaces cannot save into another, even with a key of its own', async () => {
    const dave = makeProxy({ authorize: () => ({ id: 'dave', orgIds: ['1'] }) })
    const dir = await dirOf('x', dave)
    const answer = await post(
      'material-save',
      'x',
      { orgId: '1001', materials: [{ key: `${dir}f/x.txt`, name: 'x', extension: 'txt', size: 1 }] },
      dave,
    )
    expect(answer.status).toBe(403)
    expect(await answer.json()).toMatchObject({ code: 'space_not_allowed' })
  })
})

describe('cleaning up what failed uploads left, through the proxy', () => {
  test('cleanupUploads({ checkpoint }) aborts the recorded uploads gone stale and forgets them; without one it says why (no listing is signed)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-cleanup-'))
    try {
      const alice = browserClient('alice-session')
      sim.control.faults.inject({
        match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
        action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      })
      const path = join(dir, 'left.bin')
      await writeFile(path, new Uint8Array(300 * 1024).fill(7))
      const checkpoint = join(dir, 'checkpoints')
      const failed = alice.upload(path, { partSize: 100 * 1024, checkpoint, retry: false })
      await rejection(failed.done())
      const { key, uploadId } = failed
      expect(uploadId).toBeDefined()
      const refused = await rejection(alice.cleanupUploads())
      expect(refused).toBeInstanceOf(ServiceValidationError)
      expect(refused).toMatchObject({ issues: [{ path: 'checkpoint' }] })
      expect(await alice.cleanupUploads({ checkpoint, olderThanMs: 60_000 })).toEqual({
        aborted: [],
        failed: [],
      })
      const cleaned = await alice.cleanupUploads({ checkpoint, olderThanMs: 0 })
      expect(cleaned.aborted).toEqual([{ key, uploadId, initiated: expect.any(Number) }])
      expect((await readdir(checkpoint)).filter((f) => f.endsWith('.json'))).toEqual([])
      const server = createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })
      const listParts = rawOss(await server.credentials()).listParts(key as string, uploadId as string)
      expect(await rejection(listParts)).toMatchObject({ code: 'NoSuchUpload' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the browser-side options', () => {
  test('a token, openUrl or apiKey with proxyUrl is refused, and so is a missing proxyUrl', () => {
    const refused = (options: object) => {
      try {
        createOpenClient(options as never)
      } catch (error) {
        expect(error).toBeInstanceOf(ServiceValidationError)
        return (error as ServiceValidationError).issues.map((i) => i.path)
      }
      return []
    }
    expect(refused({ proxyUrl: BASE, token: { type: 'a', value: 'b' } })).toEqual(['token'])
    expect(refused({ proxyUrl: BASE, openUrl: 'http://x', apiKey: 'k' })).toEqual(['openUrl', 'apiKey'])
    expect(refused({ proxyUrl: '' })).toEqual(['proxyUrl'])
    expect(refused({ proxyUrl: BASE, maxMaterialsPerSave: 0 })).toEqual(['maxMaterialsPerSave'])
  })

  test('a relative proxyUrl: a client made where there is no page (server-side rendering) is fine until it is used', async () => {
    const ssr = createOpenClient({ proxyUrl: '/api/upload' })
    const error = await rejection(ssr.orgs())
    expect(error).toBeInstanceOf(ServiceValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'proxyUrl' }] })
  })

  test('uploadMany through the proxy: every file saved, in batches through the same route', async () => {
    const results = await browserClient('alice-session')
      .uploadMany(
        [new Blob(['a']), new Blob(['bb'])].map((source, i) => ({ source, name: `f${i}`, extension: 'txt' })),
      )
      .done()
    const saved: SavedMaterial[] = results.flatMap((r) => (r.status === 'fulfilled' ? [r.asset] : []))
    expect(saved.map((s) => s.name)).toEqual(['f0', 'f1'])
  })
})
