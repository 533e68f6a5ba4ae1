// webhooksFastify in a real Fastify 5 app on a port: the adapter contract (including the
// simulator's sender), and its content-type parser staying inside its own route.
import { ServiceValidationError } from '@service-sdk/core'
import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { webhooksFastify } from '../src/adapters/fastify.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { adapterContract, postJson, type RunningApp, receiverWithStore, token } from './adapter-contract.ts'
import * as S from './samples.ts'

async function listen(app: FastifyInstance): Promise<RunningApp> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url, close: () => app.close() }
}

function appWith(receiver: WebhookReceiver): FastifyInstance {
  const app = Fastify({ forceCloseConnections: true })
  app.register(webhooksFastify, { receiver, prefix: '/webhooks' })
  // Another route of the same app: Fastify's own JSON parser must still serve it.
  app.post('/echo', async (request) => ({ got: request.body }))
  return app
}

adapterContract('Fastify', (receiver) => listen(appWith(receiver)))

describe('webhooksFastify is scoped to its route', () => {
  it("leaves the app's JSON parser to its other routes", async () => {
    const { receiver, store } = receiverWithStore()
    const app = await listen(appWith(receiver))
    try {
      const echo = await postJson(`${app.url}/echo`, '{"a":1}')
      expect(await echo.json()).toEqual({ got: { a: 1 } })
      expect((await postJson(`${app.url}/webhooks/${token}`, S.deletedRecycle)).status).toBe(200)
      expect((await store.get('evt_deleted_1'))?.body).toBe(S.deletedRecycle)
    } finally {
      await app.close()
    }
  })

  it("stores a body past Fastify's own bodyLimit (1 MiB): maxBodyBytes is what applies", async () => {
    const store = memoryStoreForTests()
    const receiver = createWebhookReceiver({ token, store, maxBodyBytes: 4 * 1024 * 1024, processing: false })
    const app = await listen(appWith(receiver))
    try {
      const body = `{"eventId":"evt_big","eventType":"MATERIAL_DELETED","pad":"${'x'.repeat(2 * 1024 * 1024)}"}`
      expect((await postJson(`${app.url}/webhooks/${token}`, body)).status).toBe(200)
      expect((await store.get('evt_big'))?.body).toBe(body)
    } finally {
      await app.close()
    }
  })

  it('refuses registration without a receiver, before listening', async () => {
    const app = Fastify()
    app.register(webhooksFastify, {} as { receiver: WebhookReceiver })
    await expect(app.ready()).rejects.toBeInstanceOf(ServiceValidationError)
  })
})
