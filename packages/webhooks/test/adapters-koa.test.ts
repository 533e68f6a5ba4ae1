// webhooksKoa in a real Koa app with @koa/router on a port, Koa 3 and Koa 2 (the peer range allows
// both): the adapter contract (including the simulator's sender), and the raw body a body parser keeps.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Router from '@koa/router'
import { ServiceValidationError } from '@service-sdk/core'
import Koa3, { type Middleware } from 'koa'
import Koa2 from 'koa2'
import { describe, expect, it } from 'vitest'
import { webhooksKoa } from '../src/adapters/koa.ts'
import type { WebhookReceiver } from '../src/receiver/receiver.ts'
import { adapterContract, postJson, type RunningApp, receiverWithStore, token } from './adapter-contract.ts'
import * as S from './samples.ts'

async function listen(Koa: typeof Koa3, receiver: WebhookReceiver, before?: Middleware): Promise<RunningApp> {
  const app = new Koa()
  if (before) app.use(before)
  const router = new Router()
  router.post('/webhooks/:token', webhooksKoa(receiver))
  app.use(router.routes())
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

const MAJORS = [
  ['Koa 3', Koa3],
  ['Koa 2', Koa2],
] as const

for (const [major, Koa] of MAJORS) adapterContract(major, (receiver) => listen(Koa, receiver))

/** What @koa/bodyparser and koa-bodyparser do: read the stream, keep the text on ctx.request.rawBody. */
const textKeepingParser: Middleware = async (ctx, next) => {
  const chunks: Buffer[] = []
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString()
  Object.assign(ctx.request, { rawBody: text, body: JSON.parse(text) })
  await next()
}

describe('webhooksKoa behind a body parser', () => {
  it.each(MAJORS)('%s: uses the raw text the parser kept on ctx.request.rawBody', async (_, Koa) => {
    const { receiver, store } = receiverWithStore()
    const app = await listen(Koa, receiver, textKeepingParser)
    try {
      expect((await postJson(`${app.url}/webhooks/${token}`, S.inboundUpload)).status).toBe(200)
      expect((await store.get('evt_inbound_1'))?.body).toBe(S.inboundUpload)
    } finally {
      await app.close()
    }
  })

  it.each(MAJORS)(
    '%s: a parser that consumed the stream without keeping the text: 500, nothing stored',
    async (_, Koa) => {
      const { receiver, store } = receiverWithStore()
      const consuming: Middleware = async (ctx, next) => {
        for await (const _chunk of ctx.req) {
          // read and dropped, as a parser without rawBody leaves it
        }
        await next()
      }
      const app = await listen(Koa, receiver, consuming)
      try {
        const response = await postJson(`${app.url}/webhooks/${token}`, S.inboundUpload)
        expect(response.status).toBe(500)
        expect(await response.json()).toMatchObject({ error: 'body_consumed' })
        expect(store.size).toBe(0)
      } finally {
        await app.close()
      }
    },
  )

  it('refuses something that is not a receiver when the middleware is built', () => {
    expect(() => webhooksKoa(undefined as unknown as WebhookReceiver)).toThrow(ServiceValidationError)
  })
})
