// Events from the simulator's webhook sender, with duplicates, reordering and lost acknowledgements,
// flow through a real receiver (Hono, SQLite) into handlers: nothing lost, nothing run twice.
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { stringifyJson } from '@service-sdk/core/internal'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhooksHono } from '../src/adapters/hono.ts'
import type { WebhookEvent } from '../src/events/events.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import { subscribe, uploadAssets } from './simulator-client.ts'

const ORG = '1001'
const FOLDER = '1753946835010000002'
const OTHER_FOLDER = '1753946835010000005'

describe('events from the simulator', () => {
  let sim: RunningSimulator
  let receiver: WebhookReceiver
  let server: Server
  let dir: string
  const runs: Array<{ key: string; event: WebhookEvent }> = []
  let requests = 0
  let ackLost = 0

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-sim-'))
    sim = await startSimulator({ webhooks: { retry: { initialDelayMs: 5, maxRetries: 9 } } })
    const token = generateWebhookToken()
    receiver = createWebhookReceiver({ token, store: sqliteStore(join(dir, 'inbox.db')) })
    receiver.onAny((event, { key }) => void runs.push({ key, event }))

    const app = new Hono()
    // Every 7th request is refused before the receiver sees it (the sender retries); every 5th is
    // stored but its acknowledgement is lost on the way back (the sender retries a stored event).
    app.post('/webhooks/:token', async (c, next) => {
      const n = ++requests
      if (n % 7 === 0) return c.text('unavailable', 503)
      await next()
      if (n % 5 === 0 && c.res.status === 200) {
        ackLost++
        c.res = new Response('lost', { status: 502 })
      }
    })
    app.post('/webhooks/:token', webhooksHono(receiver))
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server
    await new Promise((resolve) => server.once('listening', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/${token}`
    await subscribe(sim, url, [FOLDER, OTHER_FOLDER])
    sim.control.webhooks.configure({
      duplicateProbability: 0.4,
      reorderWindow: 4,
      eventTimeFormat: 'mixed',
      nullHeavy: true,
    })
  })

  afterAll(async () => {
    await sim?.stop()
    await receiver?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs every event exactly once, through duplicates, reordering and lost acknowledgements', async () => {
    const ids = await uploadAssets(sim, { orgId: ORG, folderId: FOLDER, names: ['hero', 'banner', 'logo'] })
    const more = await uploadAssets(sim, { orgId: ORG, folderId: FOLDER, names: ['spare', 'extra'] })
    const [hero, banner, logo] = ids as [string, string, string]
    const [spare, extra] = more as [string, string]
    const m = sim.control.materials
    m.updateMetadata(hero, { changeType: 'BASIC', name: 'hero-final', description: 'Final', score: 5 })
    m.updateMetadata(hero, { changeType: 'VALIDITY', validityStatus: 2, daysToExpire: 3, isPermanent: false })
    m.updateMetadata(hero, { changeType: 'TAGS', tagNames: ['summer', 'homepage'] })
    m.updateMetadata(banner, { changeType: 'METADATA', metadata: { campaign: 'summer' } })
    // An ownership transfer gives the asset a new id (spec/openapi.yaml, `OwnerChange`), so it comes last for banner.
    m.updateMetadata(banner, { changeType: 'OWNER', ownerUserId: '1673603133161799680' })
    m.updateMetadata(logo, { changeType: 'CUSTOM_FIELD', customFields: [{ templateId: '501', value: 'Q3' }] })
    m.addVersion(hero, spare)
    m.setCover(spare)
    m.removeVersion(spare, 'ADD')
    m.addToFolder([extra], OTHER_FOLDER)
    m.delete([logo])
    m.purge([logo])

    await sim.control.webhooks.idle()
    await receiver.drain()

    const deliveries = sim.control.webhooks.deliveries()
    expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([])
    // The faults did happen.
    expect(deliveries.some((d) => d.duplicateOf !== undefined)).toBe(true)
    expect(deliveries.some((d) => d.attempts > 1)).toBe(true)
    expect(ackLost).toBeGreaterThan(0)

    // Exactly one run per asset event (eventId) and per folder callback (its content).
    const originals = deliveries.filter((d) => d.duplicateOf === undefined)
    const assetIds = originals.filter((d) => d.kind === 'asset').map((d) => d.eventId)
    const assetRuns = runs
      .filter((r) => r.event.eventType !== 'FOLDER_CONTENT_UPDATE')
      .map((r) => (r.event as { eventId?: string }).eventId)
    expect([...assetRuns].sort()).toEqual([...assetIds].sort())
    expect(new Set(assetRuns).size).toBe(assetRuns.length)
    const folderRuns = runs.filter((r) => r.event.eventType === 'FOLDER_CONTENT_UPDATE')
    // A folder callback has no id: two with the same content (the same change shown twice within
    // one millisecond) are one event, so count distinct bodies.
    const folderBodies = new Set(
      originals.filter((d) => d.kind === 'folder').map((d) => stringifyJson(d.body)),
    )
    expect(folderRuns).toHaveLength(folderBodies.size)
    expect(new Set(folderRuns.map((r) => r.key)).size).toBe(folderRuns.length)

    // Every kind arrived, typed; ids are exact decimal strings.
    const types = new Set(runs.map((r) => r.event.eventType))
    expect([...types].sort()).toEqual([
      'FOLDER_CONTENT_UPDATE',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_DELETED',
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_METADATA_UPDATED',
      'MATERIAL_VERSION_CHANGED',
    ])
    const changeTypes = runs.flatMap((r) =>
      r.event.eventType === 'MATERIAL_METADATA_UPDATED'
        ? [(r.event.payload as { changeType: string }).changeType]
        : [],
    )
    expect(changeTypes.sort()).toEqual(['BASIC', 'CUSTOM_FIELD', 'METADATA', 'OWNER', 'TAGS', 'VALIDITY'])
    const deleted = runs.flatMap((r) => (r.event.eventType === 'MATERIAL_DELETED' ? [r.event] : []))
    expect(deleted.map((e) => (e.payload as { deleteAction: string }).deleteAction).sort()).toEqual([
      'PERMANENT',
      'RECYCLE',
    ])
    expect(JSON.stringify(deleted)).toContain(`"${logo}"`)

    // Folder callbacks came in both eventTime forms, null-heavy, and normalise to the same clock.
    const folderEvents = folderRuns.map(
      (r) => r.event as Extract<WebhookEvent, { eventType: 'FOLDER_CONTENT_UPDATE' }>,
    )
    expect(folderEvents.some((e) => /^\d+$/.test(e.eventTime ?? ''))).toBe(true)
    expect(folderEvents.some((e) => e.eventTime?.includes('T'))).toBe(true)
    for (const e of folderEvents) expect(Math.abs(e.eventTimeMs - Date.now())).toBeLessThan(3_600_000)
    expect(
      folderEvents.flatMap((e) => e.assets ?? []).some((a) => a.size === null && a.downloadUrl === null),
    ).toBe(true)
    expect(folderEvents.flatMap((e) => e.assets ?? []).map((a) => a.id)).toEqual(
      expect.arrayContaining([hero, banner, logo]),
    )

    expect(await receiver.events.counts()).toEqual({ pending: 0, processing: 0, done: runs.length, dead: 0 })
  })
})
