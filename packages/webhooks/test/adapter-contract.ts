// What every framework adapter must do over a real socket, whatever the framework: the suite the
// adapters-<framework>.test.ts files run against Express, Fastify, Koa and a Next.js route handler.
import { request } from 'node:http'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { endlessBody } from './endless-body.ts'
import * as S from './samples.ts'
import { subscribe, uploadAssets } from './simulator-client.ts'

/** A running app serving `POST <url>/webhooks/:token` through the adapter under test. */
export interface RunningApp {
  url: string
  close(): Promise<void>
}

export type StartApp = (receiver: WebhookReceiver) => Promise<RunningApp>

export const token = generateWebhookToken()

export function receiverWithStore(maxBodyBytes = 64 * 1024) {
  const store = memoryStoreForTests()
  const receiver = createWebhookReceiver({ token, store, maxBodyBytes, processing: { autoStart: false } })
  return { store, receiver }
}

/** POSTs `body` with this Content-Type; `null`: none at all. */
export function postJson(
  url: string,
  body: string,
  contentType: string | null = 'application/json',
): Promise<Response> {
  if (contentType === null) return fetch(url, { method: 'POST', body: Buffer.from(body) })
  return fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body })
}

/** Writes 16 KiB chunks (chunked, no Content-Length) until answered; resolves status and bytes sent. */
export function sendEndlessBody(url: string): Promise<{ status: number; sent: number }> {
  const chunk = Buffer.alloc(16 * 1024, 0x20)
  const limit = 64 * 1024 * 1024
  let sent = 0
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, sent })
    })
    // The server may close the socket right after its 413: that is not a failure of the test.
    req.on('error', (error) => (sent > 0 ? undefined : reject(error)))
    const write = () => {
      while (sent < limit && req.write(chunk)) sent += chunk.length
      if (sent < limit) req.once('drain', write)
      else req.end()
    }
    write()
  })
}

const ORG = '1001'
const FOLDER = '1753946835010000002'

export function adapterContract(name: string, start: StartApp): void {
  const running: RunningApp[] = []
  const started = async (receiver: WebhookReceiver) => {
    const app = await start(receiver)
    running.push(app)
    return app
  }
  afterEach(async () => {
    for (const app of running.splice(0)) await app.close()
  })

  describe(`${name}: the adapter contract`, () => {
    it('stores a delivery byte for byte and acknowledges it; a wrong token is a 404', async () => {
      const { receiver, store } = receiverWithStore()
      const { url } = await started(receiver)
      const ok = await postJson(`${url}/webhooks/${token}`, S.inboundUpload)
      expect(ok.status).toBe(200)
      expect(await ok.json()).toEqual({ received: true })
      const wrong = await postJson(`${url}/webhooks/${generateWebhookToken()}`, S.deletedPermanent)
      expect(wrong.status).toBe(404)
      expect((await store.list()).map((e) => e.key)).toEqual(['evt_inbound_1'])
      // Ids beyond 2^53 survive: the body was never parsed and re-serialized on the way.
      expect((await store.get('evt_inbound_1'))?.body).toBe(S.inboundUpload)
    })

    it('stores a duplicate delivery once and says it was a duplicate', async () => {
      const { receiver, store } = receiverWithStore()
      const { url } = await started(receiver)
      expect(await (await postJson(`${url}/webhooks/${token}`, S.addedToFolder)).json()).toEqual({
        received: true,
      })
      const again = await postJson(`${url}/webhooks/${token}`, S.addedToFolder)
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual({ received: true, duplicate: true })
      expect(store.size).toBe(1)
    })

    it('answers 400 malformed_json to a broken body or one that is not JSON, storing nothing', async () => {
      const { receiver, store } = receiverWithStore()
      const { url } = await started(receiver)
      const broken = await postJson(`${url}/webhooks/${token}`, '{"eventId":"evt_1","eventType":')
      expect(broken.status).toBe(400)
      expect(await broken.json()).toMatchObject({ error: 'malformed_json' })
      const form = await postJson(`${url}/webhooks/${token}`, 'a=1&b=2', 'application/x-www-form-urlencoded')
      expect(form.status).toBe(400)
      expect(store.size).toBe(0)
    })

    it('never refuses a JSON object for its Content-Type: none, text/plain, a form type, anything', async () => {
      const { receiver, store } = receiverWithStore()
      const { url } = await started(receiver)
      const types = [
        null,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
      ]
      for (const [i, type] of types.entries()) {
        const body = `{"eventId":"evt_type_${i}","eventType":"MATERIAL_DELETED","payload":{"materialIds":[${S.BIG}]}}`
        const response = await postJson(`${url}/webhooks/${token}`, body, type)
        expect([type, response.status, await response.json()]).toEqual([type, 200, { received: true }])
        expect((await store.get(`evt_type_${i}`))?.body).toBe(body)
      }
    })

    it('answers 413 to a declared oversized body and to an endless chunked one, reading about the cap', async () => {
      const { receiver, store } = receiverWithStore(64 * 1024)
      const { url } = await started(receiver)
      const declared = await postJson(`${url}/webhooks/${token}`, `{"x":"${'a'.repeat(70 * 1024)}"}`)
      expect(declared.status).toBe(413)
      const endless = await sendEndlessBody(`${url}/webhooks/${token}`)
      expect(endless.status).toBe(413)
      // What was written before the answer: socket buffers, nowhere near the 64 MiB offered.
      expect(endless.sent).toBeLessThan(16 * 1024 * 1024)
      expect(store.size).toBe(0)
    })
  })

  describe(`${name}: refusals close the connection`, () => {
    it('closes the connection after a 404 (wrong token) instead of reading an endless body', async () => {
      const { receiver, store } = receiverWithStore()
      const { url } = await started(receiver)
      const outcome = await endlessBody(`${url}/webhooks/${generateWebhookToken()}`)
      expect(outcome).toMatchObject({ status: 404, closed: true })
      expect(outcome.sent).toBeLessThan(16 * 1024 * 1024)
      expect(store.size).toBe(0)
    })

    it('closes the connection after a 413 instead of reading the rest of an endless body', async () => {
      const { receiver, store } = receiverWithStore(64 * 1024)
      const { url } = await started(receiver)
      const outcome = await endlessBody(`${url}/webhooks/${token}`)
      expect(outcome).toMatchObject({ status: 413, closed: true })
      expect(outcome.sent).toBeLessThan(16 * 1024 * 1024)
      expect(store.size).toBe(0)
    })
  })

  describe(`${name}: deliveries from the simulator's sender`, () => {
    let sim: RunningSimulator
    beforeAll(async () => {
      sim = await startSimulator({ webhooks: { retry: { initialDelayMs: 5, maxRetries: 4 } } })
    })
    afterAll(() => sim?.stop())

    it('receives every event once through duplicates, each handled once', async () => {
      const { receiver, store } = receiverWithStore(1024 * 1024)
      const handled: string[] = []
      receiver.onAny((_event, { key }) => void handled.push(key))
      const { url } = await started(receiver)
      await subscribe(sim, `${url}/webhooks/${token}`, [FOLDER])
      sim.control.webhooks.configure({ duplicateProbability: 1, eventTimeFormat: 'mixed', nullHeavy: true })
      await uploadAssets(sim, { orgId: ORG, folderId: FOLDER, names: ['hero', 'banner'] })
      await sim.control.webhooks.idle()
      const deliveries = sim.control.webhooks.deliveries()
      expect(deliveries.some((d) => d.duplicateOf !== undefined)).toBe(true)
      expect(deliveries.map((d) => [d.state, d.lastStatus])).toEqual(deliveries.map(() => ['delivered', 200]))
      const originals = deliveries.filter((d) => d.duplicateOf === undefined)
      expect(store.size).toBe(originals.length)
      await receiver.drain()
      expect(handled.sort()).toEqual((await store.list()).map((e) => e.key).sort())
      expect(new Set(handled).size).toBe(handled.length)
    })
  })
}
