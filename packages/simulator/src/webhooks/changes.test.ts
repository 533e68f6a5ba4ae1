import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ACME,
  ACME_AUTUMN,
  ACME_BRAND,
  ACME_DRAFTS,
  ADA,
  createTestSim,
  GLOBEX_CAMPAIGNS,
  GRACE,
  NOW,
  ORIGIN,
  type TestSim,
} from '../../test/support/webhook-sim.ts'
import { SimError } from '../http/sim-error.ts'
import type { MetadataChange } from '../model/context.ts'
import { tagIdOf } from './asset-snapshot.ts'

let t: TestSim

beforeEach(async () => {
  t = await createTestSim()
})

afterEach(async () => {
  // Every body sent parses with core's schemas, as the SDK's receiver reads it.
  expect(t.receiver.received.flatMap((r) => r.schemaIssues)).toEqual([])
  await t.close()
})

const ACME_SPACE = `t:${ACME}` as const

/** Save assets into Acme's Drafts before anyone subscribes, then subscribe to everything. */
function prepare(
  count: number,
  item: Parameters<TestSim['save']>[0][number] = { space: ACME_SPACE, folderId: ACME_DRAFTS },
) {
  const saved = t.save(Array.from({ length: count }, (_, i) => ({ name: `asset-${i}`, ...item })))
  t.subscribeFolder(ACME_DRAFTS, '/folder')
  t.subscribeFolder(ACME_BRAND, '/brand')
  t.subscribeEvents(
    ['MATERIAL_ADDED_TO_FOLDER', 'MATERIAL_METADATA_UPDATED', 'MATERIAL_VERSION_CHANGED', 'MATERIAL_DELETED'],
    '/events',
  )
  return saved.map((m) => m.id)
}

function expectRefusal(change: () => unknown, kind: SimError['kind'], message?: RegExp) {
  let caught: unknown
  try {
    change()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(SimError)
  expect((caught as SimError).kind).toBe(kind)
  if (message) expect((caught as SimError).message).toMatch(message)
}

/** The payloads of the asset events that arrived, checking the returned eventIds match them. */
async function payloads(eventIds: string[]) {
  const received = await t.at('/events')
  expect(received.map((r) => r.body.eventId)).toEqual(eventIds)
  return received.map((r) => r.body.payload as Record<string, unknown>)
}

/** The last asset event that arrived, checking it is the one `eventIds` names. */
async function lastPayload(eventIds: string[]) {
  const last = (await t.at('/events')).at(-1)
  expect(eventIds).toEqual([last?.body.eventId])
  return last?.body.payload
}

describe('updateMetadata: MATERIAL_METADATA_UPDATED per changeType, callback UPDATE', () => {
  it('BASIC carries the submitted values and updates the asset', async () => {
    const [a] = prepare(1) as [string]
    const eventIds = t.events.changes.updateMetadata(a, { changeType: 'BASIC', name: 'renamed', score: 5 })
    const [event] = (await t.at('/events')).map((r) => r.body)
    expect(event).toEqual({
      eventId: eventIds[0],
      eventType: 'MATERIAL_METADATA_UPDATED',
      eventTime: String(NOW),
      payload: {
        changeType: 'BASIC',
        materialIds: [a],
        materials: [{ materialId: a, name: 'renamed', score: 5 }],
      },
    })
    expect(t.sim.state.material(a)).toMatchObject({ name: 'renamed', score: 5 })
    const [callback] = await t.at('/folder')
    expect(callback?.body).toMatchObject({ type: 'UPDATE', folderId: ACME_DRAFTS, orgId: 1001 })
    expect(callback?.body.assets).toEqual([
      expect.objectContaining({
        id: a,
        name: 'renamed.png',
        score: 5,
        userId: ADA,
        downloadUrl: `${ORIGIN}/files/${a}/renamed.png`,
      }),
    ])
  })

  it('VALIDITY carries the validity fields that have a value', async () => {
    const [a] = prepare(1) as [string]
    const eventIds = t.events.changes.updateMetadata(a, {
      changeType: 'VALIDITY',
      validityStatus: 2,
      validityStatusName: 'Expiring',
      daysToExpire: 3,
      endTime: NOW + 3 * 86_400_000,
    })
    expect(await payloads(eventIds)).toEqual([
      {
        changeType: 'VALIDITY',
        materialIds: [a],
        materials: [
          {
            materialId: a,
            validityStatus: 2,
            validityStatusName: 'Expiring',
            daysToExpire: 3,
            endTime: NOW + 3 * 86_400_000,
          },
        ],
      },
    ])
  })

  it('TAGS carries tagIds (19-digit integers) and tagNames, and can clear them', async () => {
    const [a] = prepare(1) as [string]
    const first = t.events.changes.updateMetadata(a, { changeType: 'TAGS', tagNames: ['red', 'blue', 'red'] })
    const second = t.events.changes.updateMetadata(a, { changeType: 'TAGS', tagNames: [] })
    const [set, cleared] = await payloads([...first, ...second])
    expect(set?.materials).toEqual([
      { materialId: a, tagIds: [tagIdOf('red'), tagIdOf('blue')], tagNames: ['red', 'blue'] },
    ])
    expect(tagIdOf('red')).toMatch(/^\d{19}$/)
    expect((await t.at('/events'))[0]?.text).toContain(`"tagIds":[${tagIdOf('red')},${tagIdOf('blue')}]`)
    expect(cleared?.materials).toEqual([{ materialId: a, tagIds: [], tagNames: [] }])
    expect(t.sim.state.material(a)?.tags).toBeUndefined()
  })

  it('OWNER gives the asset a new id, carried in the item with the new owner', async () => {
    const [a] = prepare(1) as [string]
    const eventIds = t.events.changes.updateMetadata(a, { changeType: 'OWNER', ownerUserId: GRACE })
    const [payload] = await payloads(eventIds)
    const item = (payload?.materials as Array<Record<string, unknown>> | undefined)?.[0]
    expect(payload).toMatchObject({ changeType: 'OWNER', materialIds: [a] })
    expect(item).toEqual({ materialId: expect.stringMatching(/^\d{19}$/), ownerUserId: GRACE })
    expect(item?.materialId).not.toBe(a)
    expect(t.sim.state.material(a)).toBeUndefined()
    expect(t.sim.state.material(item?.materialId as string)?.ownerUserId).toBe(GRACE)
    expect((await t.at('/events'))[0]?.text).toContain(`"ownerUserId":${GRACE}`)
  })

  it('OWNER is refused for unknown users, non-members and personal spaces', () => {
    const [a] = prepare(1) as [string]
    const [mine] = t.save([{ space: `u:${ADA}` }])
    expectRefusal(
      () => t.events.changes.updateMetadata(a, { changeType: 'OWNER', ownerUserId: '42' }),
      'not_found',
    )
    expectRefusal(
      () => t.events.changes.updateMetadata(a, { changeType: 'OWNER', ownerUserId: '1673603133161799683' }),
      'bad_request',
      /not a member/,
    )
    expectRefusal(
      () => t.events.changes.updateMetadata(mine?.id as string, { changeType: 'OWNER', ownerUserId: GRACE }),
      'bad_request',
    )
    expect(t.sim.state.material(a)?.ownerUserId).toBe(ADA)
  })

  it('METADATA and CUSTOM_FIELD carry their records, ids as raw integers', async () => {
    const [a] = prepare(1) as [string]
    const eventIds = [
      ...t.events.changes.updateMetadata(a, {
        changeType: 'METADATA',
        recordId: '1900000000000000999',
        metadata: { campaign: 'spring' },
      }),
      ...t.events.changes.updateMetadata(a, {
        changeType: 'CUSTOM_FIELD',
        customFields: [{ templateId: '1900000000000000777', value: 'x' }],
      }),
    ]
    const [metadata, custom] = await payloads(eventIds)
    expect(metadata?.materials).toEqual([
      { materialId: a, recordId: '1900000000000000999', metadata: { campaign: 'spring' } },
    ])
    expect(custom?.materials).toEqual([
      { materialId: a, customFields: [{ templateId: '1900000000000000777', value: 'x' }] },
    ])
    expect((await t.at('/events'))[1]?.text).toContain('"templateId":1900000000000000777')
  })

  it('refuses bad changes and changes nothing', async () => {
    const [a] = prepare(1) as [string]
    const change = t.events.changes
    expectRefusal(() => change.updateMetadata(a, { changeType: 'BASIC', score: 9 }), 'bad_request', /score/)
    expectRefusal(() => change.updateMetadata(a, { changeType: 'BASIC' }), 'bad_request')
    expectRefusal(
      () => change.updateMetadata(a, { changeType: 'COLOUR' } as unknown as MetadataChange),
      'bad_request',
    )
    expectRefusal(
      () => change.updateMetadata('1900000000000099999', { changeType: 'BASIC', name: 'x' }),
      'not_found',
    )
    // Ids beyond 2^53 as JSON numbers have already lost digits.
    expectRefusal(
      () =>
        change.updateMetadata(Number('1900000000000000001') as unknown as string, {
          changeType: 'BASIC',
          name: 'x',
        }),
      'bad_request',
    )
    expect(t.sim.state.material(a)).toMatchObject({ name: 'asset-0' })
    expect(await t.at('/events')).toHaveLength(0)
  })
})

describe('versions: MATERIAL_VERSION_CHANGED', () => {
  it('ADD, SET_COVER and REMOVE (the REMOVE rule of the spec), dissolving a line left with one asset', async () => {
    const [a, b, c] = prepare(3) as [string, string, string]
    const v = t.events.changes
    const eventIds = [
      ...v.addVersion(a, b),
      ...v.addVersion(a, c),
      ...v.setCover(c),
      ...v.removeVersion(b, 'ADD'),
      ...v.removeVersion(a, 'DELETE'),
    ]
    expect(await payloads(eventIds)).toEqual([
      { coverMaterialId: a, newMaterialId: b, action: 'ADD', version: 2 },
      { coverMaterialId: a, newMaterialId: c, action: 'ADD', version: 3 },
      { coverMaterialId: a, newMaterialId: c, action: 'SET_COVER', version: 3 },
      {
        coverMaterialId: b,
        newMaterialId: c,
        action: 'REMOVE',
        version: 2,
        removeType: 'ADD',
        versionGroupDissolved: false,
      },
      {
        coverMaterialId: a,
        newMaterialId: c,
        action: 'REMOVE',
        version: 1,
        removeType: 'DELETE',
        versionGroupDissolved: true,
      },
    ])
    const state = (id: string) => t.sim.state.material(id)
    expect(state(b)).not.toHaveProperty('coverId')
    expect(state(b)?.deleted).toBeUndefined()
    expect(state(a)?.deleted).toBe('RECYCLE')
    expect(state(c)).not.toHaveProperty('coverId')
  })

  it('removing the cover hands the line to its newest version', async () => {
    const [a, b, c] = prepare(3) as [string, string, string]
    const v = t.events.changes
    v.addVersion(a, b)
    v.addVersion(a, c)
    expect(await lastPayload(v.removeVersion(a, 'ADD'))).toEqual({
      coverMaterialId: a,
      newMaterialId: c,
      action: 'REMOVE',
      version: 1,
      removeType: 'ADD',
      versionGroupDissolved: false,
    })
    expect(t.sim.state.material(b)?.coverId).toBe(c)
    expect(t.sim.state.material(c)?.coverId).toBe(c)
  })

  it('refuses impossible version changes', () => {
    const [a, b, c] = prepare(3) as [string, string, string]
    const [other] = t.save([{ space: `t:1002`, folderId: GLOBEX_CAMPAIGNS }], GRACE)
    const v = t.events.changes
    expectRefusal(() => v.setCover(a), 'bad_request', /not in a version line/)
    expectRefusal(() => v.removeVersion(a, 'ADD'), 'bad_request', /not in a version line/)
    expectRefusal(() => v.addVersion(a, a), 'bad_request')
    expectRefusal(() => v.addVersion(a, other?.id as string), 'bad_request', /same space/)
    v.addVersion(a, b)
    expectRefusal(() => v.addVersion(b, c), 'bad_request', /not the cover/)
    expectRefusal(() => v.setCover(a), 'bad_request', /already the cover/)
    expectRefusal(() => v.removeVersion(b, 'MOVE' as 'ADD'), 'bad_request', /removeType/)
    expectRefusal(() => v.addVersion(a, '1900000000000099999'), 'not_found')
  })
})

describe('addToFolder: MATERIAL_ADDED_TO_FOLDER, callback ADD', () => {
  it('adds assets to a folder once; an existing relation is not pushed again', async () => {
    const [a, b] = prepare(2) as [string, string]
    const eventIds = t.events.changes.addToFolder([a, b], ACME_BRAND)
    expect(t.events.changes.addToFolder([a], ACME_BRAND)).toEqual([])
    expect(await payloads(eventIds)).toEqual([{ materialIds: [a, b], folderIds: [ACME_BRAND] }])
    const callbacks = await t.at('/brand')
    expect(callbacks).toHaveLength(1)
    expect(callbacks[0]?.body).toMatchObject({ type: 'ADD', folderId: ACME_BRAND })
    expect(callbacks[0]?.body.assets).toEqual([
      expect.objectContaining({ id: a, parentIds: [ACME_BRAND], source: 2 }),
      expect.objectContaining({ id: b, parentIds: [ACME_BRAND] }),
    ])
    // Adding does not move: the asset is in both folders.
    expect(t.sim.state.material(a)).toMatchObject({ folderId: ACME_DRAFTS, extraFolderIds: [ACME_BRAND] })
  })

  it('names the cover of a version line', async () => {
    const [a, b] = prepare(2) as [string, string]
    t.events.changes.addVersion(a, b)
    expect(await lastPayload(t.events.changes.addToFolder([b], ACME_AUTUMN))).toEqual({
      materialIds: [a],
      folderIds: [ACME_AUTUMN],
    })
  })

  it('refuses the root, unknown folders and folders of another space', () => {
    const [a] = prepare(1) as [string]
    expectRefusal(() => t.events.changes.addToFolder([a], '0'), 'bad_request')
    expectRefusal(() => t.events.changes.addToFolder([a], '1900000000000099999'), 'not_found')
    expectRefusal(() => t.events.changes.addToFolder([a], GLOBEX_CAMPAIGNS), 'bad_request', /space/)
    expectRefusal(() => t.events.changes.addToFolder([], ACME_BRAND), 'bad_request')
  })
})

describe('delete and purge: MATERIAL_DELETED RECYCLE then PERMANENT', () => {
  it('RECYCLE snapshots the assets before deletion; the callback DELETE carries identifying fields only', async () => {
    const [a] = prepare(1, {
      space: ACME_SPACE,
      folderId: ACME_DRAFTS,
      name: 'logo',
      extension: 'PNG',
      tags: ['red'],
    }) as [string]
    const [b] = t.save([{ space: ACME_SPACE, name: 'notes', extension: 'txt' }], GRACE).map((m) => m.id) as [
      string,
    ]
    const eventIds = t.events.changes.delete([a, b, a])
    expect(eventIds).toHaveLength(1)
    const [payload] = await payloads(eventIds)
    expect(payload).toEqual({
      materialIds: [a, b],
      deleteAction: 'RECYCLE',
      materials: [
        {
          materialId: a,
          name: 'logo',
          materialType: 'IMAGE',
          extension: 'PNG',
          tagIds: [tagIdOf('red')],
          tagNames: ['red'],
          folderIds: [ACME_DRAFTS],
          ownerUserId: ADA,
          createUserId: ADA,
        },
        {
          materialId: b,
          name: 'notes',
          materialType: 'DOCUMENT',
          extension: 'txt',
          ownerUserId: GRACE,
          createUserId: GRACE,
        },
      ],
    })
    const text = (await t.at('/events'))[0]?.text ?? ''
    expect(text).toContain(`"materialIds":[${a},${b}]`)
    expect(text).toContain(`"ownerUserId":${ADA}`)
    const [callback] = await t.at('/folder')
    expect(callback?.body).toMatchObject({ type: 'DELETE', folderId: ACME_DRAFTS })
    expect(callback?.body.assets).toEqual([
      { id: a, parentIds: ['1753946835010000001', ACME_AUTUMN, ACME_DRAFTS], userId: ADA },
    ])
    expect(t.sim.state.material(a)?.deleted).toBe('RECYCLE')
  })

  it('PERMANENT follows RECYCLE for the same asset, then the asset is gone', async () => {
    const [a] = prepare(1) as [string]
    const eventIds = [...t.events.changes.delete([a]), ...t.events.changes.purge([a])]
    const [recycled, purged] = await payloads(eventIds)
    expect(recycled).toMatchObject({ deleteAction: 'RECYCLE', materialIds: [a] })
    expect(purged).toEqual({ ...recycled, deleteAction: 'PERMANENT' })
    // Purging leaves folder subscribers alone: the DELETE callback went out at recycling.
    expect(await t.at('/folder')).toHaveLength(1)
    expect(t.sim.state.material(a)?.deleted).toBe('PERMANENT')
    expectRefusal(() => t.events.changes.purge([a]), 'not_found')
    expectRefusal(() => t.events.changes.delete([a]), 'not_found')
  })

  it('refuses impossible deletions and changes nothing', async () => {
    const [a, b] = prepare(2) as [string, string]
    expectRefusal(() => t.events.changes.purge([a]), 'bad_request', /not in the recycle bin/)
    expectRefusal(() => t.events.changes.delete([a, '1900000000000099999']), 'not_found')
    expect(t.sim.state.material(a)?.deleted).toBeUndefined()
    t.events.changes.delete([b])
    expectRefusal(() => t.events.changes.delete([b]), 'bad_request', /recycle bin/)
    expectRefusal(
      () => t.events.changes.updateMetadata(b, { changeType: 'BASIC', name: 'x' }),
      'bad_request',
      /recycle bin/,
    )
    expectRefusal(() => t.events.changes.delete([]), 'bad_request')
    expect(await t.at('/events')).toHaveLength(1)
  })

  it('returns no eventIds when nobody subscribed, and still changes the state', () => {
    const [a] = t.save([{ space: ACME_SPACE }]).map((m) => m.id) as [string]
    expect(t.events.changes.delete([a])).toEqual([])
    expect(t.sim.state.material(a)?.deleted).toBe('RECYCLE')
  })
})
