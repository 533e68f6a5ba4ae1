import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { ServiceAuthenticationError } from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'
import { createUploadProxy } from '../src/proxy/index.ts'
import { rejection, servedHash, sha256 } from './upload/helpers.ts'

// The proxy mounted in a real Express app through @hono/node-server's Node<->Web adapter, as the
// README shows: Express strips the mount path from req.url, and a JSON body parser registered
// for the app's other routes must not see the proxy's requests.

let sim: RunningSimulator
let server: Server
let proxyUrl: string

beforeAll(async () => {
  sim = await startSimulator()
  const proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    authorize: (request) =>
      request.headers.get('authorization') === 'Bearer alice-session' ? { id: 'alice' } : false,
  })
  const app = express()
  app.use('/upload', getRequestListener(proxy))
  app.use(express.json())
  app.post('/other', (req, res) => {
    res.json({ echoed: req.body })
  })
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
  })
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`
})

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await sim?.stop()
})

test('an upload through the proxy mounted in Express: the asset is saved and serves the bytes', async () => {
  const open = createOpenClient({ proxyUrl, headers: { Authorization: 'Bearer alice-session' } })
  const bytes = new Uint8Array(150 * 1024).map((_, i) => (i * 13) % 256)
  const asset = await open.upload(new Blob([bytes]), { name: 'express', extension: 'bin' }).done()
  expect(asset.key).toMatch(/\/u[\w-]{22}\//)
  expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
})

test('Express passes the refusal through: 401 without a session', async () => {
  const open = createOpenClient({ proxyUrl })
  expect(await rejection(open.orgs())).toBeInstanceOf(ServiceAuthenticationError)
})
