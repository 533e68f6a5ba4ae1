// An asset event's object under another name than `payload`: the interface's table writes it as
// "the service" (its brand word replaced), and a tenant might send any name. The simulator's
// `assetEventObject` quirk sends it so; over real HTTP into the real receiver, on every store, the
// handlers get it as `payload`, typed, with a warning naming the field, and `orderBy: 'materialId'`
// keys the events by it as it would under `payload`.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhooksNode } from '../src/adapters/node.ts'
import type { WebhookEvent } from '../src/events/events.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type HandlerContext, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { everyStore } from './every-store.ts'
import { subscribe, uploadAssets } from './simulator-client.ts'

const STORES = await everyStore('objectname')
const DRAFTS = '1753946835010000004'

describe.each(STORES)('%s', (_name, open) => {
  describe.each(['the service', 'data'])('the object sent as "%s"', (field) => {
    let sim: RunningSimulator
    let receiver: WebhookReceiver
    let server: Server
    const runs: Array<{ event: WebhookEvent; warned: string[] }> = []

    beforeAll(async () => {
      sim = await startSimulator({
        quirks: { assetEventObject: field },
        webhooks: { retry: { initialDelayMs: 5 } },
      })
      const token = generateWebhookToken()
      receiver = createWebhookReceiver({ token, store: open(), orderBy: 'materialId' })
      receiver.onAny((event: WebhookEvent, { warnings }: HandlerContext) => {
        runs.push({ event, warned: warnings.map((w) => w.path) })
      })
      server = createServer(webhooksNode(receiver))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      await subscribe(sim, `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/${token}`, [
        DRAFTS,
      ])
      await uploadAssets(sim, { orgId: '1001', folderId: DRAFTS, names: ['one'] })
      await sim.control.webhooks.idle()
      await receiver.drain()
    })

    afterAll(async () => {
      await sim?.stop()
      await receiver?.close()
      server?.closeAllConnections()
      await new Promise((resolve) => server?.close(resolve))
    })

    it('the handlers get the object as payload, typed, with a warning naming the field it came in', () => {
      const asset = runs.filter((r) => r.event.eventType !== 'FOLDER_CONTENT_UPDATE')
      expect(asset.map((r) => r.event.eventType).sort()).toEqual([
        'MATERIAL_ADDED_TO_FOLDER',
        'MATERIAL_INBOUND_COMPLETED',
      ])
      for (const { event, warned } of asset) {
        const payload = (event as { payload?: { materialIds?: unknown[] } }).payload
        expect(payload?.materialIds).toEqual([expect.stringMatching(/^\d{19}$/)])
        expect(warned).toContain(field)
      }
    })

    it("orderBy 'materialId' keys the events by the object's materialId, as under payload", async () => {
      const stored = await receiver.events.list({ status: 'done' })
      const keys = stored.filter((e) => e.eventType !== 'FOLDER_CONTENT_UPDATE').map((e) => e.orderKey)
      expect(keys).toHaveLength(2)
      expect(keys[0]).toMatch(/^materialId:\d{19}$/)
      expect(keys[1]).toBe(keys[0])
    })
  })
})
