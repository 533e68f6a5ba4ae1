import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOss } from '../../test/support/oss-server.ts'
import { createOssApp } from './app.ts'
import type { OssCredential } from './protocol/credentials.ts'
import { parseQuery } from './protocol/request.ts'
import { signatureV1, stringToSignV1 } from './protocol/sign-v1.ts'
import { directoryObjectStore } from './store/directory-store.ts'
import { memoryObjectStore } from './store/memory-store.ts'

const BUCKET = 'sim-bucket'
const HOST = `${BUCKET}.oss-cn-hangzhou.aliyuncs.com`
const credential: OssCredential = {
  accessKeyId: 'LTAI.edge',
  accessKeySecret: 'edge-secret',
  bucket: BUCKET,
  dir: '',
}
const credentials = { get: (id: string) => (id === credential.accessKeyId ? credential : undefined) }

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Headers of a V1-signed request (the signer is checked against ali-oss in sign.test.ts). */
function signed(
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Record<string, string> {
  const [path = '', search = ''] = target.split('?')
  const all = new Headers({ 'x-oss-date': new Date().toUTCString(), ...headers })
  const stringToSign = stringToSignV1(
    { method, bucket: BUCKET, key: safeDecode(path.slice(1)), query: parseQuery(search), headers: all },
    all.get('x-oss-date') as string,
  )
  return {
    ...Object.fromEntries(all),
    host: HOST,
    authorization: `OSS ${credential.accessKeyId}:${signatureV1(credential.accessKeySecret, stringToSign)}`,
  }
}

describe('in-process Web requests (no Node request underneath)', () => {
  const app = createOssApp({ store: memoryObjectStore(), credentials })
  const call = (
    method: string,
    target: string,
    init: { headers?: Record<string, string>; body?: BodyInit } = {},
  ) =>
    app.fetch(
      new Request(`http://${HOST}${target}`, {
        method,
        headers: signed(method, target, init.headers),
        ...(init.body ? { body: init.body, duplex: 'half' } : {}),
      } as RequestInit),
    )

  it('puts a streamed body, then gets and heads it', async () => {
    const data = randomBytes(300_000)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(data.subarray(0, 1000))
        controller.enqueue(data.subarray(1000))
        controller.close()
      },
    })
    const put = await call('PUT', '/in/process.bin', {
      body,
      headers: { 'content-type': 'application/octet-stream' },
    })
    expect(put.status).toBe(200)
    expect(put.headers.get('etag')).toMatch(/^"[0-9A-F]{32}"$/)
    const got = await call('GET', '/in/process.bin')
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true)
    const head = await call('HEAD', '/in/process.bin')
    expect(head.headers.get('content-length')).toBe('300000')
    expect(await head.text()).toBe('')
  })

  it('answers a HEAD error with the XML in x-oss-err and no body', async () => {
    const head = await call('HEAD', '/in/missing')
    expect(head.status).toBe(404)
    expect(await head.text()).toBe('')
    expect(Buffer.from(head.headers.get('x-oss-err') ?? '', 'base64').toString()).toContain(
      '<Code>NoSuchKey</Code>',
    )
  })

  it.each([
    ['GET', '/k?versionId=CAEQ', 501, 'NotImplemented'],
    ['POST', '/k?restore', 501, 'NotImplemented'],
    ['GET', '/k?x-oss-process=image/resize,w_10', 501, 'NotImplemented'],
    ['GET', '/?acl', 501, 'NotImplemented'],
    ['PUT', '/', 501, 'NotImplemented'],
    ['PATCH', '/k', 405, 'MethodNotAllowed'],
    ['GET', '/bad%E0%A4%A', 400, 'InvalidURI'],
    ['PUT', '/k?partNumber=0&uploadId=0123456789ABCDEF0123456789ABCDEF', 400, 'InvalidArgument'],
    ['PUT', '/k?partNumber=10001&uploadId=0123456789ABCDEF0123456789ABCDEF', 400, 'InvalidArgument'],
    ['PUT', '/k?partNumber=1', 400, 'InvalidArgument'],
  ])('refuses %s %s with %i %s', async (method, target, status, code) => {
    const response = await call(
      method,
      target,
      method === 'PUT' ? { body: 'x', headers: { 'content-type': 'text/plain' } } : {},
    )
    expect(response.status).toBe(status)
    expect(await response.text()).toContain(`<Code>${code}</Code>`)
  })

  it('copies an object in process (the source read as a Web stream)', async () => {
    const response = await call('PUT', '/copy', {
      headers: { 'x-oss-copy-source': `/${BUCKET}/in/process.bin` },
    })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<CopyObjectResult>')
    const got = await call('GET', '/copy')
    expect(got.headers.get('content-length')).toBe('300000')
  })
})

describe('a client that hangs up mid-upload', () => {
  let work: string
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'oss-edges-'))
  })
  afterAll(async () => {
    await rm(work, { recursive: true, force: true })
  })

  it('leaves no object and no temporary file behind', async () => {
    const dir = join(work, 'store')
    const store = directoryObjectStore(dir)
    const logged: unknown[] = []
    const oss = await startOss({
      store,
      credentials,
      logger: { error: (message, fields) => logged.push([message, fields]) },
    })
    try {
      const headers = signed('PUT', '/cut.bin', {
        'content-type': 'application/octet-stream',
        'content-length': String(4 * 1024 * 1024),
      })
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${oss.endpoint}/cut.bin`, { method: 'PUT', headers })
        req.on('error', () => resolve())
        req.write(randomBytes(512 * 1024), () => setTimeout(() => req.destroy(), 50))
        req.on('close', () => resolve())
      })
      // The server notices the hang-up asynchronously.
      for (let i = 0; i < 100 && (await readdir(join(dir, 'tmp'))).length > 0; i++)
        await new Promise((r) => setTimeout(r, 20))
      expect(await readdir(join(dir, 'tmp'))).toEqual([])
      expect(await readdir(join(dir, 'data'))).toEqual([])
      expect(await store.head(BUCKET, 'cut.bin')).toBeUndefined()
      expect(logged).toEqual([])
    } finally {
      await oss.close()
    }
  })
})
