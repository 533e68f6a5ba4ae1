import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ACME,
  ACME_AUTUMN,
  ACME_DRAFTS,
  ADA,
  createTestSim,
  GLOBEX,
  GLOBEX_CAMPAIGNS,
  GRACE,
  MY_CAMPAIGNS,
  NOW,
  ORIGIN,
  type TestSim,
} from '../../test/support/webhook-sim.ts'

const ALL_EVENTS = [
  'MATERIAL_INBOUND_COMPLETED',
  'MATERIAL_ADDED_TO_FOLDER',
  'MATERIAL_METADATA_UPDATED',
  'MATERIAL_VERSION_CHANGED',
  'MATERIAL_DELETED',
]

let t: TestSim

beforeEach(async () => {
  t = await createTestSim()
})

afterEach(async () => {
  // Every body sent parses with core's schemas, as the SDK's receiver reads it.
  expect(t.receiver.received.flatMap((r) => r.schemaIssues)).toEqual([])
  await t.close()
})

describe('material-save: folder-content callback (spec: FolderContentCallback)', () => {
  it('sends one ADD callback per subscribed folder with MaterialCallbackDTO assets', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/folder')
    const [a, b] = t.save(
      [
        {
          space: `t:${ACME}`,
          folderId: ACME_DRAFTS,
          name: 'logo',
          extension: 'png',
          size: 2048,
          width: 64,
          height: 32,
          description: 'Logo',
          link: 'https://example.com/logo',
        },
        { space: `t:${ACME}`, folderId: ACME_DRAFTS, name: 'notes', extension: 'txt', size: 10 },
      ],
      GRACE,
    )
    const received = await t.at('/folder')
    expect(received).toHaveLength(1)
    const body = received[0]?.body
    expect(body).toEqual({
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: ACME_DRAFTS,
      eventTime: String(NOW),
      type: 'ADD',
      orgId: 1001,
      assets: [
        {
          id: a?.id,
          parentIds: ['1753946835010000001', ACME_AUTUMN, ACME_DRAFTS],
          userId: GRACE,
          name: 'logo.png',
          downloadUrl: `${ORIGIN}/files/${a?.id}/logo.png`,
          source: 2,
          link: 'https://example.com/logo',
          extension: 'png',
          duration: null,
          size: 2048,
          width: 64,
          height: 32,
          description: 'Logo',
          score: null,
          createUser: GRACE,
        },
        expect.objectContaining({
          id: b?.id,
          name: 'notes.txt',
          link: null,
          width: null,
          height: null,
          description: null,
        }),
      ],
    })
    // Every digit of every id, as raw JSON integers; user ids as strings (the live sample).
    const text = received[0]?.text ?? ''
    expect(text).toContain(`"folderId":${ACME_DRAFTS}`)
    expect(text).toContain(`"id":${a?.id},"parentIds":[1753946835010000001,${ACME_AUTUMN},${ACME_DRAFTS}]`)
    expect(text).toContain(`"userId":"${GRACE}"`)
    expect(text).toContain(`"createUser":"${GRACE}"`)
  })

  it('leaves orgId out for a personal space', async () => {
    t.subscribeFolder(MY_CAMPAIGNS, '/mine')
    t.save([{ space: `u:${ADA}`, folderId: MY_CAMPAIGNS }])
    const [received] = await t.at('/mine')
    expect(received?.body).not.toHaveProperty('orgId')
    expect(received?.body.assets).toEqual([expect.objectContaining({ parentIds: [MY_CAMPAIGNS] })])
  })

  it('calls back every subscription on the folder, and only on that folder', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/one')
    t.subscribeFolder(ACME_DRAFTS, '/two')
    t.subscribeFolder(ACME_AUTUMN, '/parent')
    t.save([{ space: `t:${ACME}`, folderId: ACME_DRAFTS }])
    expect(await t.at('/one')).toHaveLength(1)
    expect(await t.at('/two')).toHaveLength(1)
    expect(await t.at('/parent')).toHaveLength(0)
  })

  it('sends nothing for the root folder', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/folder')
    t.save([{ space: `t:${ACME}` }])
    await t.sender.idle()
    expect(t.receiver.received).toHaveLength(0)
  })
})

describe('material-save: callback variations of the live service', () => {
  it('sends ISO 8601 eventTime and null-heavy assets when the sender is told to', async () => {
    t.sender.configure({ eventTimeFormat: 'iso', nullHeavy: true })
    t.subscribeFolder(ACME_DRAFTS, '/folder')
    const [a] = t.save([{ space: `t:${ACME}`, folderId: ACME_DRAFTS, width: 10, height: 10 }])
    const [received] = await t.at('/folder')
    expect(received?.body.eventTime).toBe('2025-07-31T15:27:15.010+08:00')
    expect(received?.body.assets).toEqual([
      expect.objectContaining({
        id: a?.id,
        downloadUrl: null,
        size: null,
        width: null,
        height: null,
        score: null,
        link: null,
      }),
    ])
    expect(received?.schemaIssues).toEqual([])
  })
})

describe('material-save: asset events (spec: AssetEvent)', () => {
  it('sends MATERIAL_INBOUND_COMPLETED and MATERIAL_ADDED_TO_FOLDER with a payload', async () => {
    t.subscribeEvents(ALL_EVENTS, '/events')
    const [a, b] = t.save([
      {
        space: `t:${ACME}`,
        folderId: ACME_DRAFTS,
        name: 'logo',
        extension: 'png',
        size: 2048,
        width: 64,
        height: 32,
      },
      { space: `t:${ACME}`, name: 'notes', extension: 'txt', size: 10 },
    ])
    const received = await t.at('/events')
    expect(received.map((r) => r.body.eventType)).toEqual([
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
    ])
    const [inbound, added] = received.map((r) => r.body)
    expect(inbound).toEqual({
      eventId: expect.any(String),
      eventType: 'MATERIAL_INBOUND_COMPLETED',
      eventTime: String(NOW),
      payload: {
        source: 'UPLOAD_ASSETS',
        initiatorUserId: ADA,
        uploadResults: [
          {
            id: a?.id,
            name: 'logo',
            extension: 'png',
            size: 2048,
            width: 64,
            height: 32,
            uploadStatus: 'SUCCESS',
          },
          { id: b?.id, name: 'notes', extension: 'txt', size: 10, uploadStatus: 'SUCCESS' },
        ],
        materialIds: [a?.id, b?.id],
      },
    })
    expect(added).toEqual({
      eventId: expect.any(String),
      eventType: 'MATERIAL_ADDED_TO_FOLDER',
      eventTime: String(NOW),
      payload: { materialIds: [a?.id], folderIds: [ACME_DRAFTS] },
    })
    expect(inbound?.eventId).not.toBe(added?.eventId)
    expect(received[0]?.text).toContain(`"initiatorUserId":${ADA}`)
    expect(received[0]?.text).toContain(`"materialIds":[${a?.id},${b?.id}]`)
    expect(received[1]?.text).toContain(`"folderIds":[${ACME_DRAFTS}]`)
  })

  it('sends one MATERIAL_ADDED_TO_FOLDER per target folder', async () => {
    t.subscribeEvents(['MATERIAL_ADDED_TO_FOLDER'], '/events')
    const [a, b, c] = t.save([
      { space: `t:${ACME}`, folderId: ACME_DRAFTS },
      { space: `t:${ACME}`, folderId: ACME_AUTUMN },
      { space: `t:${ACME}`, folderId: ACME_DRAFTS },
    ])
    const payloads = (await t.at('/events')).map((r) => r.body.payload)
    expect(payloads).toEqual([
      { materialIds: [a?.id, c?.id], folderIds: [ACME_DRAFTS] },
      { materialIds: [b?.id], folderIds: [ACME_AUTUMN] },
    ])
  })

  it('sends only the subscribed event types', async () => {
    t.subscribeEvents(['MATERIAL_DELETED'], '/events')
    t.save([{ space: `t:${ACME}`, folderId: ACME_DRAFTS }])
    expect(await t.at('/events')).toHaveLength(0)
  })

  it('routes by the API key: a key of another team receives nothing', async () => {
    t.addApiKey('sk_globex', GRACE, GLOBEX)
    t.subscribeEvents(ALL_EVENTS, '/acme')
    t.subscribeEvents(ALL_EVENTS, '/globex', 'sk_globex')
    t.save([{ space: `t:${ACME}`, folderId: ACME_DRAFTS }])
    expect(await t.at('/acme')).toHaveLength(2)
    expect(await t.at('/globex')).toHaveLength(0)
    t.save([{ space: `t:${GLOBEX}`, folderId: GLOBEX_CAMPAIGNS }], GRACE)
    expect(await t.at('/acme')).toHaveLength(2)
    expect(await t.at('/globex')).toHaveLength(2)
  })

  it("routes personal-space events to the space owner's keys only", async () => {
    t.addApiKey('sk_grace', GRACE, ACME)
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/ada')
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/grace', 'sk_grace')
    t.save([{ space: `u:${ADA}` }])
    expect(await t.at('/ada')).toHaveLength(1)
    expect(await t.at('/grace')).toHaveLength(0)
  })

  it('sends an event once to a URL that two keys subscribed, with one eventId', async () => {
    t.addApiKey('sk_acme_2', GRACE, ACME)
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/shared')
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/shared', 'sk_acme_2')
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/other', 'sk_acme_2')
    t.save([{ space: `t:${ACME}` }])
    const shared = await t.at('/shared')
    const other = await t.at('/other')
    expect(shared).toHaveLength(1)
    expect(other[0]?.body.eventId).toBe(shared[0]?.body.eventId)
  })

  it('sends both kinds when both subscriptions exist', async () => {
    t.subscribeFolder(ACME_DRAFTS, '/both')
    t.subscribeEvents(['MATERIAL_INBOUND_COMPLETED'], '/both')
    t.save([{ space: `t:${ACME}`, folderId: ACME_DRAFTS }])
    const kinds = (await t.at('/both')).map((r) => r.body.eventType)
    expect(kinds.sort()).toEqual(['FOLDER_CONTENT_UPDATE', 'MATERIAL_INBOUND_COMPLETED'])
  })
})
