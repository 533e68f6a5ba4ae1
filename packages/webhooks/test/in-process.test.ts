// The simulator delivers to receiver.fetch directly (no socket), with the same retries and faults.
import { FOLDERS, SPACES } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/testing.ts'
import { subscribe, uploadAssets } from './simulator-client.ts'

const sim = useSimulator({ webhooks: { retry: { initialDelayMs: 5 } } })

describe('in-process delivery from the simulator to receiver.fetch', () => {
  it('stores each event once despite duplicates and a receiver that fails at first', async () => {
    const token = generateWebhookToken()
    const receiver = createWebhookReceiver({ token, store: memoryStoreForTests() })
    const seen: string[] = []
    receiver.onAny((event) => void seen.push(event.eventType))
    let calls = 0
    sim.control.webhooks.deliverTo(
      (request) => (++calls === 1 ? new Response(null, { status: 503 }) : receiver.fetch(request)),
      'http://receiver.test/',
    )
    sim.control.webhooks.configure({ duplicateProbability: 1 })
    await subscribe(sim, `http://receiver.test/webhooks/${token}`, [FOLDERS.acme.spring])
    await uploadAssets(sim, { orgId: SPACES.acme, folderId: FOLDERS.acme.spring, names: ['a.png', 'b.png'] })
    await sim.control.webhooks.idle()
    await receiver.drain()
    const deliveries = sim.control.webhooks.deliveries()
    expect(deliveries.length).toBeGreaterThanOrEqual(2)
    expect(deliveries.every((d) => d.state === 'delivered')).toBe(true)
    expect(calls).toBeGreaterThan(deliveries.length) // the refused first attempt was retried
    expect(seen.length).toBe(new Set(deliveries.filter((d) => !d.duplicateOf).map((d) => d.id)).size)
    await receiver.close()
  })
})
