// webhooksNext: the App Router route handler, served on a port by @hono/node-server, which turns
// each socket request into a Web Request as Next's Node runtime does (a real `next build` of an
// app is not run here: see the README's "Next.js" section). Then the adapter contract (including
// the simulator's sender), and the lazily created receiver.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { ServiceValidationError } from '@service-sdk/core'
import { describe, expect, it } from 'vitest'
import { type NextWebhookRoute, webhooksNext } from '../src/adapters/next.ts'
import type { WebhookReceiver } from '../src/receiver/receiver.ts'
import { adapterContract, postJson, type RunningApp, receiverWithStore, token } from './adapter-contract.ts'
import * as S from './samples.ts'

/** `app/webhooks/[token]/route.ts` exporting only POST: Next answers other methods 405. */
async function listen(route: NextWebhookRoute): Promise<RunningApp> {
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) =>
      request.method === 'POST' && /^\/webhooks\/[^/]+$/.test(new URL(request.url).pathname)
        ? route.POST(request)
        : new Response(null, { status: request.method === 'POST' ? 404 : 405 }),
  }) as Server
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

adapterContract('Next.js route handler', (receiver) => listen(webhooksNext(receiver)))

describe('webhooksNext with a receiver made on first use', () => {
  it('calls the factory once, at the first delivery, and retries it after a failure', async () => {
    const { receiver, store } = receiverWithStore()
    let calls = 0
    const route = webhooksNext(async () => {
      calls++
      if (calls === 1) throw new Error('store not reachable yet')
      return receiver
    })
    expect(calls).toBe(0)
    const app = await listen(route)
    try {
      expect((await postJson(`${app.url}/webhooks/${token}`, S.addedToFolder)).status).toBe(500)
      expect((await postJson(`${app.url}/webhooks/${token}`, S.addedToFolder)).status).toBe(200)
      expect((await postJson(`${app.url}/webhooks/${token}`, S.deletedRecycle)).status).toBe(200)
      expect(calls).toBe(2)
      expect(store.size).toBe(2)
    } finally {
      await app.close()
    }
  })

  it('refuses something that is neither a receiver nor a function', () => {
    expect(() => webhooksNext({} as WebhookReceiver)).toThrow(ServiceValidationError)
  })
})
