// The adapters over real sockets: Hono on @hono/node-server, node:http, and Express-style use.
import { once } from 'node:events'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { webhooksHono } from '../src/adapters/hono.ts'
import { webhooksNode } from '../src/adapters/node.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { endlessBody } from './endless-body.ts'
import * as S from './samples.ts'

const token = generateWebhookToken()
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

function receiverWithStore(maxBodyBytes = 64 * 1024) {
  const store = memoryStoreForTests()
  const receiver = createWebhookReceiver({ token, store, maxBodyBytes, processing: { autoStart: false } })
  return { store, receiver }
}

async function listen(server: Server): Promise<string> {
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function honoServer(receiver: WebhookReceiver): Promise<string> {
  const app = new Hono()
  app.post('/webhooks/:token', webhooksHono(receiver))
  return listen(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server)
}

async function nodeServer(receiver: WebhookReceiver): Promise<string> {
  return listen(createServer(webhooksNode(receiver)))
}

/** Express-style: a router that strips a mount path and hands over `next`, with a body parser in front. */
async function expressLikeServer(receiver: WebhookReceiver, parser?: 'raw' | 'json'): Promise<string> {
  const handler = webhooksNode(receiver)
  return listen(
    createServer(async (req, res) => {
      const r = req as typeof req & { originalUrl?: string; body?: unknown }
      r.originalUrl = req.url ?? '/'
      req.url = req.url?.replace(/^\/hooks/, '') ?? '/'
      if (parser) {
        const chunks: Buffer[] = []
        for await (const chunk of req) chunks.push(chunk as Buffer)
        r.body = parser === 'raw' ? Buffer.concat(chunks) : JSON.parse(Buffer.concat(chunks).toString())
      }
      await handler(req, res, (error) => {
        res.writeHead(500).end(`next(${String(error)})`)
      })
    }),
  )
}

const kinds = {
  'Hono (webhooksHono on @hono/node-server)': honoServer,
  'node:http (webhooksNode)': nodeServer,
} as const

describe.each(Object.entries(kinds))('%s', (_name, start) => {
  it('stores and acknowledges a delivery; refuses a wrong token with 404', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await start(receiver)
    const ok = await fetch(`${url}/webhooks/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.deletedRecycle,
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ received: true })
    const wrong = await fetch(`${url}/webhooks/${generateWebhookToken()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.deletedPermanent,
    })
    expect(wrong.status).toBe(404)
    expect((await store.list()).map((e) => e.key)).toEqual(['evt_deleted_1'])
    expect((await store.get('evt_deleted_1'))?.body).toBe(S.deletedRecycle)
  })

  it('answers 413 to an endless body after reading only about the cap, and stores nothing', async () => {
    const { receiver, store } = receiverWithStore(64 * 1024)
    const url = new URL(`${await start(receiver)}/webhooks/${token}`)
    const chunk = Buffer.alloc(16 * 1024, 0x20)
    let sent = 0
    const status = await new Promise<number>((resolve, reject) => {
      // Chunked, no Content-Length: the receiver must count what it reads.
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      const write = () => {
        // Stop producing after 64 MiB: by then the answer must have come.
        while (sent < 64 * 1024 * 1024 && req.write(chunk)) sent += chunk.length
        if (sent < 64 * 1024 * 1024) req.once('drain', write)
        else req.end()
      }
      write()
    })
    expect(status).toBe(413)
    // What was written before the answer: socket buffers on both sides, nowhere near the 64 MiB offered.
    expect(sent).toBeLessThan(16 * 1024 * 1024)
    expect(store.size).toBe(0)
  })
})

describe.each(Object.entries(kinds))('%s: refusals close the connection', (_name, start) => {
  it('closes the connection after a 404 (wrong token) instead of reading an endless body', async () => {
    const { receiver, store } = receiverWithStore()
    const outcome = await endlessBody(`${await start(receiver)}/webhooks/${generateWebhookToken()}`)
    expect(outcome).toMatchObject({ status: 404, closed: true })
    expect(outcome.sent).toBeLessThan(16 * 1024 * 1024)
    expect(store.size).toBe(0)
  })

  it('closes the connection after a 413 instead of reading the rest of an endless body', async () => {
    const { receiver, store } = receiverWithStore(64 * 1024)
    const outcome = await endlessBody(`${await start(receiver)}/webhooks/${token}`)
    expect(outcome).toMatchObject({ status: 413, closed: true })
    expect(outcome.sent).toBeLessThan(16 * 1024 * 1024)
    expect(store.size).toBe(0)
  })
})

describe('webhooksNode: refusals before the body close the connection', () => {
  it('after a 404 for another path and a 405 for another method, without reading an endless body', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await nodeServer(receiver)
    for (const [method, path, status] of [
      ['POST', `/elsewhere/${token}`, 404],
      ['PUT', `/webhooks/${token}`, 405],
    ] as const) {
      const outcome = await endlessBody(`${url}${path}`, method)
      expect(outcome, `${method} ${path}`).toMatchObject({ status, closed: true })
      expect(outcome.sent).toBeLessThan(16 * 1024 * 1024)
    }
    expect(store.size).toBe(0)
  })
})

describe('webhooksNode and webhooksHono when built', () => {
  it('refuse something that is not a receiver, with a validation_error', () => {
    expect(() => webhooksNode({} as WebhookReceiver)).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    )
    expect(() => webhooksHono(undefined as unknown as WebhookReceiver)).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    )
  })
})

describe('webhooksNode serves only its path', () => {
  it('answers 404 to any other URL whose last segment is the token, and stores nothing', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await nodeServer(receiver)
    const send = (path: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: S.addedToFolder,
      })
    for (const path of [
      `/${token}`,
      `/anything/${token}`,
      `/webhooks/x/${token}`,
      `/static/webhooks/${token}`,
    ]) {
      expect((await send(path)).status, path).toBe(404)
    }
    expect(store.size).toBe(0)
    expect((await send(`/webhooks/${token}?x=1`)).status).toBe(200)
    expect(store.size).toBe(1)
  })

  it('serves a configured path, also in Express under a mount path', async () => {
    const { receiver, store } = receiverWithStore()
    const handler = webhooksNode(receiver, { path: '/hooks/in/' })
    const url = await listen(createServer((req, res) => void handler(req, res)))
    const send = (path: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: S.addedToFolder,
      })
    expect((await send(`/webhooks/${token}`)).status).toBe(404)
    expect((await send(`/hooks/in/${token}`)).status).toBe(200)
    expect(store.size).toBe(1)
  })
})

describe('webhooksNode in Express-style apps', () => {
  it('reads the token from the original URL under a mount path', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await expressLikeServer(receiver)
    const response = await fetch(`${url}/hooks/webhooks/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.addedToFolder,
    })
    expect(response.status).toBe(200)
    expect(store.size).toBe(1)
  })

  it('uses the Buffer left by express.raw()', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await expressLikeServer(receiver, 'raw')
    const response = await fetch(`${url}/hooks/webhooks/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.inboundUpload,
    })
    expect(response.status).toBe(200)
    expect((await store.get('evt_inbound_1'))?.body).toBe(S.inboundUpload)
  })

  it('refuses with 500 and an explanation when a JSON parser consumed the body (ids would be rounded)', async () => {
    const { receiver, store } = receiverWithStore()
    const url = await expressLikeServer(receiver, 'json')
    const response = await fetch(`${url}/hooks/webhooks/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.inboundUpload,
    })
    expect(response.status).toBe(500)
    expect((await response.json()).message).toMatch(/before body parsers/)
    expect(store.size).toBe(0)
  })
})
