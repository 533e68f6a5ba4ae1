// webhooksExpress in a real Express app on a port, Express 5 and Express 4 (the peer range allows
// both): the adapter contract (including the simulator's sender), then what body parsers mounted
// before it do to the raw body.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ServiceValidationError } from '@service-sdk/core'
import express5, { type Express } from 'express'
import express4 from 'express4'
import { afterEach, describe, expect, it } from 'vitest'
import { keepRawBody, webhooksExpress } from '../src/adapters/express.ts'
import type { WebhookReceiver } from '../src/receiver/receiver.ts'
import { adapterContract, postJson, type RunningApp, receiverWithStore, token } from './adapter-contract.ts'
import * as S from './samples.ts'

async function listen(app: Express): Promise<RunningApp> {
  const server: Server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

type ExpressModule = typeof express5

for (const [major, express] of [
  ['Express 5', express5],
  ['Express 4', express4],
] as const) {
  const appWith = (receiver: WebhookReceiver, parser?: express5.RequestHandler): Express => {
    const app = express()
    if (parser) app.use(parser)
    app.post('/webhooks/:token', webhooksExpress(receiver))
    return app
  }
  adapterContract(major, (receiver) => listen(appWith(receiver)))
  behindParsers(major, express, appWith)
}

function behindParsers(
  major: string,
  express: ExpressModule,
  appWith: (receiver: WebhookReceiver, parser: express5.RequestHandler) => Express,
): void {
  describe(`${major}: webhooksExpress behind a body parser`, () => {
    const apps: RunningApp[] = []
    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close()
    })
    const start = async (receiver: WebhookReceiver, parser: express5.RequestHandler) => {
      const app = await listen(appWith(receiver, parser))
      apps.push(app)
      return app.url
    }

    it('express.json() alone: a valid token is answered 500 naming the parser, nothing stored; a wrong one 404', async () => {
      const { receiver, store } = receiverWithStore()
      const url = await start(receiver, express.json())
      const consumed = await postJson(`${url}/webhooks/${token}`, S.inboundUpload)
      expect(consumed.status).toBe(500)
      expect(await consumed.json()).toMatchObject({
        error: 'body_consumed',
        message: expect.stringContaining('express.raw'),
      })
      expect((await postJson(`${url}/webhooks/x${token}`, S.inboundUpload)).status).toBe(404)
      expect(store.size).toBe(0)
    })

    it('express.json({ verify: keepRawBody }): the kept bytes are stored, large ids intact', async () => {
      const { receiver, store } = receiverWithStore()
      const url = await start(receiver, express.json({ verify: keepRawBody }))
      expect((await postJson(`${url}/webhooks/${token}`, S.inboundUpload)).status).toBe(200)
      expect((await store.get('evt_inbound_1'))?.body).toBe(S.inboundUpload)
    })

    it("express.raw({ type: 'application/json' }): its Buffer is used, and still capped", async () => {
      const { receiver, store } = receiverWithStore(1024)
      const url = await start(receiver, express.raw({ type: 'application/json' }))
      expect((await postJson(`${url}/webhooks/${token}`, S.addedToFolder)).status).toBe(200)
      expect((await store.get('evt_added_1'))?.body).toBe(S.addedToFolder)
      const big = await postJson(`${url}/webhooks/${token}`, `{"x":"${'a'.repeat(2048)}"}`)
      expect(big.status).toBe(413)
      expect(store.size).toBe(1)
    })

    it('hands an error the receiver does not answer itself to next(error)', async () => {
      const { receiver } = receiverWithStore()
      const failing = { ...receiver, receive: () => Promise.reject(new TypeError('unexpected')) }
      const app = express()
      app.post('/webhooks/:token', webhooksExpress(failing))
      app.use(
        (error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
          res.status(599).end(`next got ${error.message}`)
        },
      )
      const running = await listen(app)
      apps.push(running)
      const response = await postJson(`${running.url}/webhooks/${token}`, S.addedToFolder)
      expect([response.status, await response.text()]).toEqual([599, 'next got unexpected'])
    })

    it('refuses something that is not a receiver when the handler is built', () => {
      expect(() => webhooksExpress({} as WebhookReceiver)).toThrow(ServiceValidationError)
    })
  })
}
