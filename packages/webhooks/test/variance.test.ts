// Everything the service documents (spec/openapi.yaml), through the real receiver and the real SQLite store (and the
// memory store): unknown enum values, nulls, missing optional fields, extra fields (prototype
// names included), 19-digit ids as numbers and as strings. Every event reaches the handler for
// its type and onAny exactly once, and none is dead-lettered.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { WebhookEvent } from '../src/events/events.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type HandlerContext } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import type { WebhookStore } from '../src/stores/store.ts'
import { post } from './helpers.ts'
import { BIG, USER } from './samples.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-variance-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const token = generateWebhookToken()
const EXTRA = `"traceId":"t-1","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},"newField":[1,{"x":null}]`
const asset = (eventId: string, eventType: string, payload: string, top = '') =>
  `{"eventId":${eventId},"eventType":"${eventType}","eventTime":"1753946835010"${top},"payload":${payload}}`

interface Variant {
  name: string
  eventType: string
  body: string
  /** The paths the receiver should warn about: the unknown enum values, nothing else. */
  warns: string[]
}

const VARIANTS: Variant[] = [
  // ------------------------------------------------------------------ the folder callback
  {
    name: 'folder: unknown type and asset source, ids as numbers',
    eventType: 'FOLDER_CONTENT_UPDATE',
    body: `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":${BIG},"eventTime":"1753946835010","type":"MOVE","assets":[{"id":${BIG},"source":4},{"id":1,"source":2}]}`,
    warns: ['type', 'assets.0.source'],
  },
  {
    name: 'folder: null assets, null orgId, no eventTime, ids as strings',
    eventType: 'FOLDER_CONTENT_UPDATE',
    body: `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":"${BIG}","type":"DELETE","assets":null,"orgId":null}`,
    warns: [],
  },
  {
    name: 'folder: every nullable asset field null, extra fields at every level',
    eventType: 'FOLDER_CONTENT_UPDATE',
    body: `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":12,"eventTime":"2025-07-31T15:27:15.010+08:00","type":"ADD","orgId":"${BIG}",${EXTRA},"assets":[{"id":"${BIG}","parentIds":null,"userId":null,"name":null,"downloadUrl":null,"source":null,"link":null,"extension":null,"duration":null,"size":null,"width":null,"height":null,"description":null,"score":null,"createUser":null,${EXTRA}}]}`,
    warns: [],
  },
  {
    name: 'folder: no eventType (the documented default)',
    eventType: 'FOLDER_CONTENT_UPDATE',
    body: `{"folderId":${BIG},"eventTime":1753946835010,"type":"UPDATE","assets":[{"id":${BIG},"userId":"${USER}"}]}`,
    warns: [],
  },
  // ------------------------------------------------------------------ MATERIAL_INBOUND_COMPLETED
  {
    name: 'inbound: unknown source, numeric 19-digit eventId',
    eventType: 'MATERIAL_INBOUND_COMPLETED',
    body: asset(
      '1951438207513255999',
      'MATERIAL_INBOUND_COMPLETED',
      `{"source":"API_IMPORT","initiatorUserId":${USER},"materialIds":[${BIG}]}`,
    ),
    warns: ['payload.source'],
  },
  {
    name: 'inbound: null containers and extra fields',
    eventType: 'MATERIAL_INBOUND_COMPLETED',
    body: asset(
      '"evt-in-2"',
      'MATERIAL_INBOUND_COMPLETED',
      `{"source":null,"uploadResults":null,"materialIds":null,"pendingInboundIdToMaterialId":null,${EXTRA}}`,
      `,${EXTRA}`,
    ),
    warns: [],
  },
  {
    name: 'inbound: upload results with nulls and ids as strings',
    eventType: 'MATERIAL_INBOUND_COMPLETED',
    body: asset(
      `"${BIG}"`,
      'MATERIAL_INBOUND_COMPLETED',
      `{"source":"UPLOAD_ASSETS","uploadResults":[{"id":"${BIG}","name":null,"size":null,"uploadStatus":"DONE",${EXTRA}}],"materialIds":["${BIG}"]}`,
    ),
    warns: [],
  },
  // ------------------------------------------------------------------ MATERIAL_ADDED_TO_FOLDER
  {
    name: 'added: empty payload',
    eventType: 'MATERIAL_ADDED_TO_FOLDER',
    body: asset('"evt-add-1"', 'MATERIAL_ADDED_TO_FOLDER', '{}'),
    warns: [],
  },
  {
    name: 'added: nulls, extra fields, ids in both forms',
    eventType: 'MATERIAL_ADDED_TO_FOLDER',
    body: asset(
      '"evt-add-2"',
      'MATERIAL_ADDED_TO_FOLDER',
      `{"materialIds":[${BIG},"${BIG}"],"folderIds":null,${EXTRA}}`,
      `,${EXTRA}`,
    ),
    warns: [],
  },
  // ------------------------------------------------------------------ MATERIAL_METADATA_UPDATED
  {
    name: 'metadata: unknown changeType with its own items',
    eventType: 'MATERIAL_METADATA_UPDATED',
    body: asset(
      '"evt-meta-1"',
      'MATERIAL_METADATA_UPDATED',
      `{"changeType":"STATUS","materialIds":[${BIG}],"materials":[{"materialId":${BIG},"status":"ARCHIVED"}]}`,
    ),
    warns: ['payload.changeType'],
  },
  {
    name: 'metadata: known changeType, null containers',
    eventType: 'MATERIAL_METADATA_UPDATED',
    body: asset(
      '"evt-meta-2"',
      'MATERIAL_METADATA_UPDATED',
      `{"changeType":"TAGS","materialIds":null,"materials":null}`,
    ),
    warns: [],
  },
  {
    name: 'metadata: items with nulls and extra fields',
    eventType: 'MATERIAL_METADATA_UPDATED',
    body: asset(
      '"evt-meta-3"',
      'MATERIAL_METADATA_UPDATED',
      `{"changeType":"OWNER","materials":[{"materialId":"${BIG}","ownerUserId":null,${EXTRA}}],${EXTRA}}`,
    ),
    warns: [],
  },
  // ------------------------------------------------------------------ MATERIAL_VERSION_CHANGED
  {
    name: 'version: unknown action and removeType',
    eventType: 'MATERIAL_VERSION_CHANGED',
    body: asset(
      '"evt-ver-1"',
      'MATERIAL_VERSION_CHANGED',
      `{"coverMaterialId":${BIG},"newMaterialId":"${BIG}","action":"MERGE","removeType":"KEEP","version":{"n":3}}`,
    ),
    warns: ['payload.action', 'payload.removeType'],
  },
  {
    name: 'version: only optional fields missing, nulls',
    eventType: 'MATERIAL_VERSION_CHANGED',
    body: asset(
      '"evt-ver-2"',
      'MATERIAL_VERSION_CHANGED',
      `{"action":"REPLACE_COVER_ON_UPLOAD","version":null,"removeType":null,${EXTRA}}`,
    ),
    warns: [],
  },
  // ------------------------------------------------------------------ MATERIAL_DELETED
  {
    name: 'deleted: unknown deleteAction',
    eventType: 'MATERIAL_DELETED',
    body: asset('"evt-del-1"', 'MATERIAL_DELETED', `{"materialIds":[${BIG}],"deleteAction":"ARCHIVE"}`),
    warns: ['payload.deleteAction'],
  },
  {
    name: 'deleted: folderIds, snapshots with nulls and extra fields',
    eventType: 'MATERIAL_DELETED',
    body: asset(
      '1',
      'MATERIAL_DELETED',
      `{"materialIds":["${BIG}"],"deleteAction":"RECYCLE","folderIds":[${BIG}],"materials":[{"materialId":${BIG},"tagIds":null,"name":null,"materialType":"VIDEO",${EXTRA}}]}`,
      `,${EXTRA}`,
    ),
    warns: [],
  },
]

const STORES: Array<[string, () => WebhookStore]> = [
  ['SQLite', () => sqliteStore(join(dir, `variance-${Date.now()}-${Math.random()}.sqlite`))],
  ['memory', () => memoryStoreForTests()],
]

describe.each(STORES)('every variant the service documents, %s store', (_name, makeStore) => {
  it('reaches the handler for its type and onAny exactly once; nothing is dead-lettered', async () => {
    const receiver = createWebhookReceiver({ token, store: makeStore(), processing: { autoStart: false } })
    const typed: Array<{ event: WebhookEvent; context: HandlerContext }> = []
    const any: string[] = []
    for (const eventType of new Set(VARIANTS.map((v) => v.eventType))) {
      receiver.on(eventType as 'MATERIAL_DELETED', (event, context) => void typed.push({ event, context }))
    }
    receiver.onAny((_event, context) => void any.push(context.key))

    const keys: string[] = []
    for (const variant of VARIANTS) {
      const receipt = await receiver.receive({
        method: 'POST',
        url: `/webhooks/${token}`,
        contentType: 'application/json',
        body: variant.body,
      })
      expect(receipt, variant.name).toMatchObject({ status: 200, duplicate: false })
      keys.push(receipt.key!)
    }
    await receiver.drain()

    expect(await receiver.events.counts()).toEqual({
      pending: 0,
      processing: 0,
      done: VARIANTS.length,
      dead: 0,
    })
    expect(any.sort()).toEqual([...keys].sort())
    expect(typed.map((t) => t.context.key).sort()).toEqual([...keys].sort())
    for (const [i, variant] of VARIANTS.entries()) {
      const run = typed.find((t) => t.context.key === keys[i])!
      expect(run.event.eventType, variant.name).toBe(variant.eventType)
      expect(run.context.warnings.map((w) => w.path).sort(), variant.name).toEqual([...variant.warns].sort())
    }
    await receiver.close()
  })
})

describe('what the variants deliver', () => {
  async function deliver(body: string) {
    const receiver = createWebhookReceiver({
      token,
      store: memoryStoreForTests(),
      processing: { autoStart: false },
    })
    const runs: Array<{ event: Record<string, unknown>; context: HandlerContext }> = []
    receiver.onAny((event, context) => void runs.push({ event: event as Record<string, unknown>, context }))
    expect((await post(receiver, token, body)).status).toBe(200)
    await receiver.drain()
    await receiver.close()
    expect(runs).toHaveLength(1)
    return runs[0]!
  }

  it('unknown values are kept as sent, ids exact in both forms', async () => {
    const { event } = await deliver(VARIANTS[0]!.body)
    expect(event).toMatchObject({
      folderId: BIG,
      type: 'MOVE',
      assets: [
        { id: BIG, source: 4 },
        { id: '1', source: 2 },
      ],
    })
    const metadata = await deliver(VARIANTS.find((v) => v.warns.includes('payload.changeType'))!.body)
    expect(metadata.event.payload).toEqual({
      changeType: 'STATUS',
      materialIds: [BIG],
      materials: [{ materialId: BIG, status: 'ARCHIVED' }],
    })
  })

  it('a 19-digit numeric eventId is the key, every digit kept', async () => {
    const { event, context } = await deliver(
      VARIANTS.find((v) => v.name.startsWith('inbound: unknown'))!.body,
    )
    expect(context.key).toBe('1951438207513255999')
    expect(event.eventId).toBe('1951438207513255999')
  })

  it('fields named __proto__, constructor and prototype arrive as own data; no prototype is touched', async () => {
    const { event } = await deliver(VARIANTS[2]!.body)
    const assets = event.assets as Array<Record<string, unknown>>
    for (const where of [event, assets[0]!]) {
      expect(Object.getPrototypeOf(where)).toBe(Object.prototype)
      expect(Object.getOwnPropertyDescriptor(where, '__proto__')?.value).toEqual({ polluted: true })
      expect(Object.getOwnPropertyDescriptor(where, 'constructor')?.value).toEqual({
        prototype: { polluted: true },
      })
      expect(where.prototype).toEqual({ polluted: true })
      expect(where.traceId).toBe('t-1')
    }
    const deleted = await deliver(VARIANTS.at(-1)!.body)
    const payload = deleted.event.payload as { materials: Array<Record<string, unknown>> }
    expect(Object.getOwnPropertyDescriptor(payload.materials[0], '__proto__')?.value).toEqual({
      polluted: true,
    })
    expect(payload.materials[0]!.materialType).toBe('VIDEO')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })
})

const postgres = await postgresOrSkip()
const pgSchema = `webhooks_variance_${randomBytes(6).toString('hex')}`
afterAll(async () => {
  if (!postgres.available) return
  const admin = new pg.Pool({ connectionString: postgres.url, max: 1 })
  await admin.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`)
  await admin.end()
})

/** Opens the same inbox again each time it is called (a process restarted on a new version). */
const INBOXES: Array<[string, boolean, () => () => WebhookStore]> = [
  [
    'SQLite',
    true,
    () => {
      const path = join(dir, `requeue-${randomBytes(4).toString('hex')}.sqlite`)
      return () => sqliteStore(path)
    },
  ],
  [
    'PostgreSQL',
    postgres.available,
    () => () => postgresStore(postgres.url, { schema: pgSchema, table: 'requeue' }),
  ],
]

describe.each(INBOXES)(
  'events dead-lettered for their schema before this version, %s',
  (_name, available, inbox) => {
    it.skipIf(!available)('are re-queued and then reach their handler, across receivers', async () => {
      const open = inbox()
      const bodies = VARIANTS.filter((v) => v.warns.length > 0).map((v) => v.body)

      // What earlier versions did, and what `strict: true` still does: store, then dead-letter.
      const before = createWebhookReceiver({
        token,
        store: open(),
        strict: true,
        processing: { autoStart: false },
      })
      const refused: unknown[] = []
      before.onAny((event) => void refused.push(event))
      for (const body of bodies) expect((await post(before, token, body)).status).toBe(200)
      await before.drain()
      await before.close()
      expect(refused).toEqual([])

      const after = createWebhookReceiver({ token, store: open(), processing: { autoStart: false } })
      const dead = await after.events.list({ status: 'dead' })
      expect(dead).toHaveLength(bodies.length)
      expect(dead.every((e) => /a value this SDK does not know/.test(e.lastError ?? ''))).toBe(true)

      const runs: HandlerContext[] = []
      after.onAny((_event, context) => void runs.push(context))
      expect(await after.events.requeue()).toBe(bodies.length)
      await after.drain()
      expect(runs.map((r) => r.key).sort()).toEqual(dead.map((e) => e.key).sort())
      expect(runs.every((r) => r.attempt === 1 && r.warnings.length > 0)).toBe(true)
      expect(await after.events.counts()).toMatchObject({ done: bodies.length, dead: 0 })
      await after.close()
    })
  },
)
