// The variance suite: the simulator sends the whole documented variety (a confirmed pending
// intake, a cover replaced on upload, folders deleted with their assets, assets in several
// folders, the root folder, sizes in KB) and, under its drift quirk, unknown enum values, extra
// fields (a `__proto__` key among them), null containers, 19-digit numeric eventIds and missing
// optional fields in every event kind. All of it goes over real HTTP into the real receiver and
// SQLite store: every event reaches its handler and onAny exactly once; nothing is dead-lettered.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringifyJson } from '@service-sdk/core/internal'
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhooksNode } from '../src/adapters/node.ts'
import type { WebhookEvent } from '../src/events/events.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type HandlerContext, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import { subscribe, uploadAssets } from './simulator-client.ts'

const ORG = '1001'
const AUTUMN = '1753946835010000003'
const DRAFTS = '1753946835010000004'
const BRAND = '1753946835010000005'
const KINDS = [
  'FOLDER_CONTENT_UPDATE',
  'MATERIAL_ADDED_TO_FOLDER',
  'MATERIAL_DELETED',
  'MATERIAL_INBOUND_COMPLETED',
  'MATERIAL_METADATA_UPDATED',
  'MATERIAL_VERSION_CHANGED',
] as const

type Loose = Record<string, unknown>
interface Run {
  /** The handler that ran: the type-specific one, or onAny. */
  via: 'type' | 'any'
  key: string
  event: WebhookEvent
  /** The paths the receiver warned about (values this SDK does not know). */
  warned: string[]
}

/** Every variant, through the service API and the control API. */
async function drive(sim: RunningSimulator): Promise<void> {
  const [hero, banner, spare] = (await uploadAssets(sim, {
    orgId: ORG,
    folderId: DRAFTS,
    names: ['hero', 'banner', 'spare'],
  })) as [string, string, string]
  const [atRoot] = (await uploadAssets(sim, { orgId: ORG, folderId: '0', names: ['root'] })) as [string]
  const m = sim.control.materials
  m.addToFolder([hero], BRAND)
  m.updateMetadata(hero, { changeType: 'TAGS', tagNames: ['summer'] })
  m.updateMetadata(banner, { changeType: 'BASIC', name: 'banner-final', description: 'Final', score: 4 })
  m.addVersion(hero, banner)
  m.replaceCoverOnUpload(hero, spare)
  m.removeVersion(banner, 'ADD')
  await m.confirmPendingIntake([{ name: 'scan', extension: 'pdf' }], { orgId: ORG, folderId: DRAFTS })
  m.delete([atRoot], { folderIds: [AUTUMN] })
  m.purge([atRoot])
  await sim.control.webhooks.idle()
}

describe.each<[string, SimulatorOptions]>([
  [
    'the documented variants, sizes in KB, both eventTime forms',
    { quirks: { callbackSizeUnit: 'KB' }, webhooks: { eventTimeFormat: 'mixed' } },
  ],
  ['full drift', { quirks: { drift: true } }],
  ['half drift, faultSeed 3', { faultSeed: 3, quirks: { drift: 0.5 } }],
])('variance: %s', (_name, options) => {
  let sim: RunningSimulator
  let receiver: WebhookReceiver
  let server: Server
  let dir: string
  const runs: Run[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-variance-'))
    sim = await startSimulator({
      ...options,
      webhooks: { retry: { initialDelayMs: 5 }, ...options.webhooks },
    })
    const token = generateWebhookToken()
    receiver = createWebhookReceiver({ token, store: sqliteStore(join(dir, 'inbox.db')) })
    const record =
      (via: Run['via']) =>
      (event: WebhookEvent, { key, warnings }: HandlerContext): void =>
        void runs.push({ via, key, event, warned: warnings.map((w) => w.path) })
    for (const kind of KINDS) receiver.on(kind, record('type'))
    receiver.onAny(record('any'))
    server = createServer(webhooksNode(receiver))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/${token}`
    await subscribe(sim, url, ['0', DRAFTS, BRAND])
    await drive(sim)
    await receiver.drain()
  })

  afterAll(async () => {
    await sim?.stop()
    await receiver?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  const deliveries = () => sim.control.webhooks.deliveries()
  const handled = (via: Run['via'], kind?: string) =>
    runs.filter((r) => r.via === via && (kind === undefined || r.event.eventType === kind))

  it('delivers every body, stores each once, and dead-letters none', async () => {
    expect(deliveries().filter((d) => d.state !== 'delivered')).toEqual([])
    const dead = await receiver.events.list({ status: 'dead' })
    expect(dead.map((e) => e.lastError)).toEqual([])
    const counts = await receiver.events.counts()
    expect(counts).toEqual({ pending: 0, processing: 0, done: handled('any').length, dead: 0 })
  })

  it('runs the type handler and onAny exactly once for every event of every kind', () => {
    expect([...new Set(handled('any').map((r) => r.event.eventType))].sort()).toEqual([...KINDS])
    for (const via of ['type', 'any'] as const) {
      const keys = handled(via).map((r) => r.key)
      expect(new Set(keys).size).toBe(keys.length)
      // Asset events: one run per eventId sent (numeric ones read as their exact digits).
      const sent = deliveries()
        .filter((d) => d.kind === 'asset')
        .map((d) => d.eventId)
      const ran = handled(via)
        .filter((r) => r.event.eventType !== 'FOLDER_CONTENT_UPDATE')
        .map((r) => (r.event as { eventId?: string }).eventId)
      expect([...ran].sort()).toEqual([...sent].sort())
      // Folder callbacks have no id: one run per distinct body (identical bodies are one event).
      const bodies = new Set(
        deliveries()
          .filter((d) => d.kind === 'folder')
          .map((d) => stringifyJson(d.body)),
      )
      expect(handled(via, 'FOLDER_CONTENT_UPDATE')).toHaveLength(bodies.size)
    }
  })

  it('hands unknown fields to handlers as plain data, touching no prototype', () => {
    expect(({} as Loose).polluted).toBeUndefined()
    for (const { event } of runs) {
      expect((event as unknown as Loose).polluted).toBeUndefined()
      const own = Object.getOwnPropertyDescriptor(event, '__proto__')
      if (own) expect(own.value).toEqual({ polluted: true })
    }
    if (options.quirks?.drift === true) {
      // Full drift: every body carried the key, and an extra 19-digit integer, exactly.
      for (const { event } of runs) {
        expect(Object.hasOwn(event, '__proto__')).toBe(true)
        expect((event as unknown as Loose).tenantId).toBe('1673603133161799999')
      }
    }
  })

  it('reads what each kind carried', () => {
    const payloads = (kind: string) =>
      handled('type', kind).map((r) => (r.event as unknown as Loose).payload as Loose)
    const folders = handled('type', 'FOLDER_CONTENT_UPDATE').map((r) => r.event as unknown as Loose)
    if (options.quirks?.drift === true) {
      // Unknown enum values and null containers reached the handlers as sent.
      expect(folders.every((e) => e.type === 'MOVE' && e.assets === null)).toBe(true)
      expect(payloads('MATERIAL_INBOUND_COMPLETED').every((p) => p.source === 'API_IMPORT')).toBe(true)
      expect(payloads('MATERIAL_METADATA_UPDATED').every((p) => p.changeType === 'STATUS')).toBe(true)
      expect(payloads('MATERIAL_VERSION_CHANGED').every((p) => p.action === 'MERGE')).toBe(true)
      expect(payloads('MATERIAL_DELETED').every((p) => p.deleteAction === 'ARCHIVE')).toBe(true)
      for (const r of handled('type').filter((x) => x.event.eventType !== 'FOLDER_CONTENT_UPDATE'))
        expect((r.event as { eventId: string }).eventId).toMatch(/^\d{19}$/)
      // Each unknown value is a warning on the handler's context, and nothing else is.
      const warned: Record<string, string[]> = {
        FOLDER_CONTENT_UPDATE: ['type'],
        MATERIAL_ADDED_TO_FOLDER: [],
        MATERIAL_DELETED: ['payload.deleteAction'],
        MATERIAL_INBOUND_COMPLETED: ['payload.source'],
        MATERIAL_METADATA_UPDATED: ['payload.changeType'],
        MATERIAL_VERSION_CHANGED: ['payload.action'],
      }
      for (const r of runs) expect(r.warned, r.event.eventType).toEqual(warned[r.event.eventType])
      return
    }
    if (options.quirks?.drift) {
      // Part drift: some bodies drifted, some did not; all ran.
      expect(folders.some((e) => e.type === 'MOVE' || e.assets === null)).toBe(true)
      expect(folders.some((e) => Array.isArray(e.assets))).toBe(true)
      return
    }
    // Every documented value is one this SDK knows: no warnings.
    expect(runs.flatMap((r) => r.warned)).toEqual([])
    const inbound = payloads('MATERIAL_INBOUND_COMPLETED')
    expect(inbound.map((p) => p.source).sort()).toEqual([
      'PENDING_INBOUND_CONFIRM',
      'UPLOAD_ASSETS',
      'UPLOAD_ASSETS',
    ])
    const confirmed = inbound.find((p) => p.source === 'PENDING_INBOUND_CONFIRM')
    expect(Object.entries(confirmed?.pendingInboundIdToMaterialId as Loose)).toEqual([
      [expect.stringMatching(/^\d{19}$/), expect.stringMatching(/^\d{19}$/)],
    ])
    expect(payloads('MATERIAL_VERSION_CHANGED').map((p) => p.action)).toEqual([
      'ADD',
      'REPLACE_COVER_ON_UPLOAD',
      'REMOVE',
    ])
    expect(payloads('MATERIAL_DELETED').map((p) => [p.deleteAction, p.folderIds])).toEqual([
      ['RECYCLE', [AUTUMN, DRAFTS]],
      ['PERMANENT', undefined],
    ])
    // The root (0) was called back; the asset added to Brand stayed in Drafts too.
    expect(folders.map((e) => [e.folderId, e.type])).toEqual(
      expect.arrayContaining([
        ['0', 'ADD'],
        ['0', 'DELETE'],
        [BRAND, 'ADD'],
        [BRAND, 'UPDATE'],
        [DRAFTS, 'UPDATE'],
        [DRAFTS, 'DELETE'],
      ]),
    )
    // eventTime as epoch milliseconds and as ISO 8601 with an offset, read as the same clock.
    const times = handled('type', 'FOLDER_CONTENT_UPDATE').map(
      (r) => r.event as { eventTime: string; eventTimeMs: number },
    )
    expect(times.some((e) => /^\d+$/.test(e.eventTime))).toBe(true)
    expect(times.some((e) => /^\d{4}-\d{2}-\d{2}T.*\+08:00$/.test(e.eventTime))).toBe(true)
    for (const e of times) expect(Math.abs(e.eventTimeMs - Date.now())).toBeLessThan(3_600_000)
    // Sizes in KB, rounded up: every file here is under 1 KB.
    const sizes = folders.flatMap((e) => (e.type === 'ADD' ? (e.assets as Array<{ size: unknown }>) : []))
    expect(sizes.map((a) => a.size)).toEqual(sizes.map(() => 1))
  })
})
