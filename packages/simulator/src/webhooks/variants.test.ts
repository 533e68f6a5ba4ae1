// The documented variety beyond the common path: a confirmed pending intake, a cover replaced on
// upload, folders deleted with their assets, assets in several folders, the root folder (0),
// folder-callback sizes in KB, and the drift quirk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ACME,
  ACME_AUTUMN,
  ACME_BRAND,
  ACME_CAMPAIGNS,
  ACME_DRAFTS,
  ADA,
  createTestSim,
  GLOBEX,
  type TestSim,
} from '../../test/support/webhook-sim.ts'
import { SimError } from '../http/sim-error.ts'
import { BUCKET } from '../model/state.ts'

let t: TestSim

beforeEach(async () => {
  t = await createTestSim()
})

afterEach(async () => {
  await t.close()
})

const ACME_SPACE = `t:${ACME}` as const
const ALL_EVENTS = [
  'MATERIAL_INBOUND_COMPLETED',
  'MATERIAL_ADDED_TO_FOLDER',
  'MATERIAL_METADATA_UPDATED',
  'MATERIAL_VERSION_CHANGED',
  'MATERIAL_DELETED',
]

function saveInDrafts(count: number) {
  return t
    .save(
      Array.from({ length: count }, (_, i) => ({
        name: `asset-${i}`,
        space: ACME_SPACE,
        folderId: ACME_DRAFTS,
      })),
    )
    .map((m) => m.id)
}

async function payloadsOf(eventType: string) {
  return (await t.at('/events')).filter((r) => r.body.eventType === eventType).map((r) => r.body.payload)
}

describe('an asset in several folders', () => {
  it('stays in its folder when added to another; changes and deletion reach both folders', async () => {
    const [a] = saveInDrafts(1) as [string]
    t.subscribeFolder(ACME_DRAFTS, '/drafts')
    t.subscribeFolder(ACME_BRAND, '/brand')
    t.subscribeEvents(['MATERIAL_DELETED'], '/events')
    t.events.changes.addToFolder([a], ACME_BRAND)
    t.events.changes.updateMetadata(a, { changeType: 'BASIC', name: 'both' })
    t.events.changes.delete([a])

    const drafts = await t.at('/drafts')
    const brand = await t.at('/brand')
    expect(drafts.map((r) => r.body.type)).toEqual(['UPDATE', 'DELETE'])
    expect(brand.map((r) => r.body.type)).toEqual(['ADD', 'UPDATE', 'DELETE'])
    // parentIds lead to the folder called back.
    const parents = (r: (typeof drafts)[number]) =>
      (r.body.assets as Array<{ parentIds: string[] }>)[0]?.parentIds
    expect(parents(drafts[0] as (typeof drafts)[number])).toEqual([ACME_CAMPAIGNS, ACME_AUTUMN, ACME_DRAFTS])
    expect(parents(brand[1] as (typeof brand)[number])).toEqual([ACME_BRAND])
    const [deleted] = (await payloadsOf('MATERIAL_DELETED')) as Array<{ materials: unknown[] }>
    expect(deleted?.materials[0]).toMatchObject({ materialId: a, folderIds: [ACME_DRAFTS, ACME_BRAND] })
  })
})

describe('MATERIAL_VERSION_CHANGED with REPLACE_COVER_ON_UPLOAD', () => {
  it('the uploaded version joins the line and becomes its cover', async () => {
    const [cover, upload] = saveInDrafts(2) as [string, string]
    t.subscribeEvents(['MATERIAL_VERSION_CHANGED'], '/events')
    const eventIds = t.events.changes.replaceCoverOnUpload(cover, upload)
    const received = await t.at('/events')
    expect(received.map((r) => r.body.eventId)).toEqual(eventIds)
    expect(received[0]?.body.payload).toEqual({
      coverMaterialId: cover,
      newMaterialId: upload,
      action: 'REPLACE_COVER_ON_UPLOAD',
      version: 2,
    })
    expect(t.sim.state.material(cover)).toMatchObject({ coverId: upload, version: 1 })
    expect(t.sim.state.material(upload)).toMatchObject({ coverId: upload, version: 2 })
    // The replaced cover can no longer be replaced: it is a version now.
    expect(() => t.events.changes.replaceCoverOnUpload(cover, upload)).toThrow(SimError)
  })
})

describe('MATERIAL_INBOUND_COMPLETED from a confirmed pending intake', () => {
  it('maps each pending-intake id to its new asset, stores the bytes and calls the folder back', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/drafts')
    t.subscribeEvents(ALL_EVENTS, '/events')
    const eventIds = await t.events.changes.confirmPendingIntake(
      [
        { name: 'scan', extension: 'pdf', content: 'scanned bytes' },
        { name: 'memo', extension: 'txt' },
      ],
      { orgId: ACME, folderId: ACME_DRAFTS },
    )
    const received = await t.at('/events')
    expect(received.map((r) => r.body.eventId)).toEqual(eventIds)
    expect(received.map((r) => r.body.eventType)).toEqual([
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
    ])
    const payload = received[0]?.body.payload as { pendingInboundIdToMaterialId: Record<string, string> }
    expect(payload).toEqual({
      source: 'PENDING_INBOUND_CONFIRM',
      initiatorUserId: ADA,
      pendingInboundIdToMaterialId: expect.any(Object),
    })
    const pairs = Object.entries(payload.pendingInboundIdToMaterialId)
    expect(pairs).toHaveLength(2)
    const assets = pairs.map(([pendingId, id]) => {
      expect(pendingId).toMatch(/^\d{19}$/)
      // Asset ids are raw JSON integers, every digit kept.
      expect(received[0]?.text).toContain(`"${pendingId}":${id}`)
      return t.sim.state.material(id)
    })
    expect(assets.map((m) => [m?.name, m?.size, m?.folderId])).toEqual([
      ['scan', 13, ACME_DRAFTS],
      ['memo', 4, ACME_DRAFTS],
    ])
    const stored = await t.sim.store.get(BUCKET, assets[0]?.key as string)
    expect(stored?.object.size).toBe(13)
    const [callback] = await t.at('/drafts')
    expect(callback?.body).toMatchObject({ type: 'ADD', folderId: ACME_DRAFTS })
    expect(callback?.body.assets).toHaveLength(2)
  })

  it('checks the files and the target before storing anything', async () => {
    const refusals: Array<[unknown, object | undefined]> = [
      [[], undefined],
      [[{ extension: 'png' }], undefined],
      [[{ name: 'a', extension: 'png', content: 7 }], undefined],
      [[{ name: 'a', extension: 'png' }], { orgId: '4242' }],
      [[{ name: 'a', extension: 'png' }], { orgId: GLOBEX, folderId: ACME_DRAFTS }],
    ]
    for (const [items, target] of refusals) {
      await expect(
        t.events.changes.confirmPendingIntake(items as never, target as never),
      ).rejects.toBeInstanceOf(SimError)
    }
    expect(t.sim.state.data.materials).toEqual([])
    expect(await t.sim.store.list()).toEqual([])
  })
})

describe('MATERIAL_DELETED with folderIds: folders deleted in the same batch', () => {
  it('recycles the assets whose every folder goes; one also elsewhere only leaves', async () => {
    const [a, b] = saveInDrafts(2) as [string, string]
    const [c] = t.save([{ name: 'loose', space: ACME_SPACE, folderId: ACME_BRAND }]).map((m) => m.id) as [
      string,
    ]
    t.events.changes.addToFolder([b], ACME_BRAND)
    t.subscribeFolder(ACME_DRAFTS, '/drafts')
    t.subscribeEvents(['MATERIAL_DELETED'], '/events')
    // Autumn holds Drafts: both folders go; c is named in the same batch.
    const eventIds = t.events.changes.delete([c], { folderIds: [ACME_AUTUMN] })
    expect(eventIds).toHaveLength(1)
    const [payload] = (await payloadsOf('MATERIAL_DELETED')) as Array<Record<string, unknown>>
    expect(payload).toMatchObject({
      materialIds: [c, a],
      deleteAction: 'RECYCLE',
      folderIds: [ACME_AUTUMN, ACME_DRAFTS],
    })
    expect(t.sim.state.material(a)?.deleted).toBe('RECYCLE')
    expect(t.sim.state.material(b)?.folderId).toBe(ACME_BRAND)
    expect(t.sim.state.material(b)?.extraFolderIds).toBeUndefined()
    expect(t.sim.state.material(b)?.deleted).toBeUndefined()
    expect(t.sim.state.folder(ACME_AUTUMN)).toBeUndefined()
    expect(t.sim.state.folder(ACME_DRAFTS)).toBeUndefined()
    const [callback] = await t.at('/drafts')
    expect(callback?.body).toMatchObject({ type: 'DELETE', folderId: ACME_DRAFTS })
    expect(callback?.body.assets).toEqual([
      expect.objectContaining({ id: a }),
      expect.objectContaining({ id: b }),
    ])
  })

  it('refuses the root and unknown folders, and changes nothing then', () => {
    const [a] = saveInDrafts(1) as [string]
    expect(() => t.events.changes.delete([a], { folderIds: ['0'] })).toThrow(/root/)
    expect(() => t.events.changes.delete([a], { folderIds: ['1900000000000099999'] })).toThrow(SimError)
    expect(t.sim.state.material(a)?.deleted).toBeUndefined()
  })
})

describe('folder 0 is the root of every space', () => {
  it('calls back root subscribers of the spaces their API key reaches', async () => {
    t.subscribeFolder('0', '/root')
    t.save([{ name: 'team-root', space: ACME_SPACE }])
    t.save([{ name: 'personal-root', space: `u:${ADA}` }])
    // The caller's key is scoped to Acme: another team's root is not its root.
    t.save([{ name: 'globex-root', space: `t:${GLOBEX}` }])
    const received = await t.at('/root')
    expect(
      received.map((r) => [
        r.body.folderId,
        r.body.orgId,
        (r.body.assets as Array<{ name: string }>)[0]?.name,
      ]),
    ).toEqual([
      [0, 1001, 'team-root.png'],
      [0, undefined, 'personal-root.png'],
    ])
    expect(received[0]?.body.assets).toEqual([expect.objectContaining({ parentIds: [] })])
  })
})

describe('callbackSizeUnit quirk', () => {
  it('sends folder-callback sizes in KB, rounded up; bytes by default', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/drafts')
    t.save([{ name: 'bytes', space: ACME_SPACE, folderId: ACME_DRAFTS, size: 1500 }])
    t.sim.quirks.callbackSizeUnit = 'KB'
    t.save([{ name: 'kb', space: ACME_SPACE, folderId: ACME_DRAFTS, size: 1500 }])
    const sizes = (await t.at('/drafts')).map((r) => (r.body.assets as Array<{ size: number }>)[0]?.size)
    expect(sizes).toEqual([1500, 2])
  })
})

/** Every kind once: save (callback, INBOUND, ADDED), metadata, version, delete. */
async function everyKind(): Promise<
  Array<{ eventType: string; text: string; body: Record<string, unknown> }>
> {
  t.subscribeFolder(ACME_DRAFTS, '/events')
  t.subscribeEvents(ALL_EVENTS, '/events')
  const [a, b] = saveInDrafts(2) as [string, string]
  t.events.changes.updateMetadata(a, { changeType: 'BASIC', name: 'drifted', description: 'd', score: 3 })
  t.events.changes.addVersion(a, b)
  t.events.changes.delete([a])
  return (await t.at('/events')).map((r) => ({
    eventType: r.body.eventType as string,
    text: r.text,
    body: r.body,
  }))
}

describe('drift quirk', () => {
  it('at full strength, every kind carries each variation that applies to it', async () => {
    t.sim.quirks.drift = true
    const received = await everyKind()
    const kinds = new Set(received.map((r) => r.eventType))
    expect(kinds.size).toBe(6)
    for (const { eventType, text, body } of received) {
      // Extra fields: a `__proto__`-named key in the raw text and an unknown 19-digit integer.
      expect(text).toContain('"__proto__":{"polluted":true}')
      expect(text).toContain('"tenantId":1673603133161799999')
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
      if (eventType === 'FOLDER_CONTENT_UPDATE') {
        expect(body).toMatchObject({ type: 'MOVE', assets: null })
        expect(body).not.toHaveProperty('orgId')
        continue
      }
      expect(text).toMatch(/^\{"eventId":\d{19},/)
      const payload = body.payload as Record<string, unknown>
      expect(text).toContain('"payload":{')
      expect(text.slice(text.indexOf('"payload"'))).toContain('"__proto__":{"polluted":true}')
      const expected: Record<string, Record<string, unknown>> = {
        MATERIAL_INBOUND_COMPLETED: { source: 'API_IMPORT', uploadResults: null, materialIds: null },
        MATERIAL_ADDED_TO_FOLDER: { folderIds: null },
        MATERIAL_METADATA_UPDATED: { changeType: 'STATUS', materials: null },
        MATERIAL_VERSION_CHANGED: { action: 'MERGE' },
        MATERIAL_DELETED: { deleteAction: 'ARCHIVE', materials: null },
      }
      expect(payload).toMatchObject(expected[eventType] as object)
    }
    const version = received.find((r) => r.eventType === 'MATERIAL_VERSION_CHANGED')?.body.payload
    expect(version).not.toHaveProperty('version')
    const inbound = received.find((r) => r.eventType === 'MATERIAL_INBOUND_COMPLETED')?.body.payload
    expect(inbound).not.toHaveProperty('initiatorUserId')
  })

  it('returns the numeric eventIds as decimal strings, as sent', async () => {
    t.sim.quirks.drift = true
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/events')
    t.save([{ name: 'x', space: ACME_SPACE }])
    const deliveries = t.sender.deliveries().filter((d) => d.kind === 'asset')
    const [received] = await t.at('/events')
    expect(deliveries[0]?.eventId).toMatch(/^\d{19}$/)
    expect(received?.text).toContain(`"eventId":${deliveries[0]?.eventId},`)
  })

  it('off by default: nothing drifts', async () => {
    for (const { text } of await everyKind()) {
      expect(text).not.toContain('__proto__')
      expect(text).not.toContain('tenantId')
    }
  })
})
