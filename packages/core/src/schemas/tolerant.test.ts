import { describe, expect, test } from 'vitest'
import {
  assetEventSchema,
  folderContentCallbackSchema,
  isKnownChangeType,
  materialDeletedEventSchema,
  materialInboundCompletedEventSchema,
  materialMetadataUpdatedEventSchema,
  materialVersionChangedEventSchema,
  orgSpaceSchema,
  teamMemberSchema,
} from './index.ts'

describe('response schemas', () => {
  test('keep unknown fields', () => {
    const member = {
      id: '7',
      name: 'Ann',
      email: 'ann@acme.com',
      createdAt: '2025-01-01T00:00:00Z',
      avatar: 'a.png',
    }
    expect(teamMemberSchema.parse(member)).toEqual(member)
    const org = {
      id: '4021',
      orgNo: 'ORG1',
      name: 'Acme',
      orgFeeType: 1,
      roleId: 2,
      roleCode: 'admin',
      roleName: 'Admin',
      valid: true,
      invalidTime: 1785482835010,
      seats: 10,
    }
    expect(orgSpaceSchema.parse(org)).toEqual(org)
  })
})

describe('folder-content callback', () => {
  test('accepts nulls, a missing orgId, unknown fields, and a numeric eventTime', () => {
    const body = {
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: '12',
      eventTime: 1753946835010,
      type: 'ADD',
      newTopLevelField: { x: 1 },
      assets: [
        {
          id: '1951438207513255936',
          parentIds: null,
          userId: '1673603133161799680',
          name: 'a.jpg',
          downloadUrl: null,
          source: 2,
          size: null,
          duration: null,
          score: null,
          extra: true,
        },
      ],
    }
    const parsed = folderContentCallbackSchema.parse(body)
    expect(parsed.eventTime).toBe('1753946835010')
    expect(parsed.newTopLevelField).toEqual({ x: 1 })
    expect(parsed.assets?.[0]).toMatchObject({ downloadUrl: null, size: null, extra: true })
    expect('orgId' in parsed).toBe(false)
  })

  test('accepts DELETE assets that carry only their id', () => {
    const parsed = folderContentCallbackSchema.parse({
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: '12',
      eventTime: '2025-07-31T15:27:15.010+08:00',
      type: 'DELETE',
      assets: [{ id: '1' }, { id: '2' }],
      orgId: null,
    })
    expect(parsed.assets).toEqual([{ id: '1' }, { id: '2' }])
  })
})

describe('open enums: values added by the service are kept, not refused', () => {
  const event = (eventType: string, payload: unknown) => ({
    eventId: 'e',
    eventType,
    eventTime: '1',
    payload,
  })

  test('in each asset event', () => {
    expect(
      materialDeletedEventSchema.parse(event('MATERIAL_DELETED', { deleteAction: 'ARCHIVE' })).payload
        .deleteAction,
    ).toBe('ARCHIVE')
    const version = materialVersionChangedEventSchema.parse(
      event('MATERIAL_VERSION_CHANGED', { action: 'MERGE', removeType: 'KEEP' }),
    )
    expect(version.payload).toEqual({ action: 'MERGE', removeType: 'KEEP' })
    expect(
      materialInboundCompletedEventSchema.parse(event('MATERIAL_INBOUND_COMPLETED', { source: 'API_IMPORT' }))
        .payload.source,
    ).toBe('API_IMPORT')
  })

  test('a changeType the SDK does not know keeps its items as sent', () => {
    const parsed = materialMetadataUpdatedEventSchema.parse(
      event('MATERIAL_METADATA_UPDATED', {
        changeType: 'STATUS',
        materialIds: ['9'],
        materials: [{ materialId: '9', status: 'ARCHIVED' }],
      }),
    )
    expect(parsed.payload).toEqual({
      changeType: 'STATUS',
      materialIds: ['9'],
      materials: [{ materialId: '9', status: 'ARCHIVED' }],
    })
    expect(isKnownChangeType(parsed.payload)).toBe(false)
  })

  test('in the folder callback: type, asset source, null assets, no eventTime', () => {
    const parsed = folderContentCallbackSchema.parse({
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: '12',
      type: 'MOVE',
      assets: [{ id: '1', source: 4 }],
    })
    expect(parsed).toEqual({
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: '12',
      type: 'MOVE',
      assets: [{ id: '1', source: 4 }],
    })
    const empty = folderContentCallbackSchema.parse({
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: '12',
      eventTime: '1',
      type: 'DELETE',
      assets: null,
    })
    expect(empty.assets).toBeNull()
  })

  test('a value of the wrong JSON type is still refused, saying where', () => {
    const result = materialDeletedEventSchema.safeParse(event('MATERIAL_DELETED', { deleteAction: 42 }))
    expect(result.error?.issues[0]?.path).toEqual(['payload', 'deleteAction'])
  })
})

describe('asset events', () => {
  test('payload fields are optional, unknown ones kept, known nulls read as absent', () => {
    const parsed = materialDeletedEventSchema.parse({
      eventId: 'e1',
      eventType: 'MATERIAL_DELETED',
      eventTime: '1753946860000',
      payload: {
        materialIds: ['1951438207513255936'],
        folderIds: null,
        materials: [{ materialId: '1951438207513255936', tagIds: null, colour: 'red' }],
        batch: 'b-1',
        note: null,
      },
    })
    expect(parsed.payload).toEqual({
      materialIds: ['1951438207513255936'],
      materials: [{ materialId: '1951438207513255936', colour: 'red' }],
      batch: 'b-1',
      note: null,
    })
    expect(
      materialDeletedEventSchema.parse({
        eventId: 'e2',
        eventType: 'MATERIAL_DELETED',
        eventTime: '1',
        payload: {},
      }).payload,
    ).toEqual({})
  })

  test('metadata items are read by changeType', () => {
    const parsed = materialMetadataUpdatedEventSchema.parse({
      eventId: 'e3',
      eventType: 'MATERIAL_METADATA_UPDATED',
      eventTime: '1753946840003',
      payload: {
        changeType: 'OWNER',
        materialIds: null,
        materials: [{ materialId: '9', ownerUserId: '10' }],
      },
    })
    expect(parsed.payload).toEqual({
      changeType: 'OWNER',
      materials: [{ materialId: '9', ownerUserId: '10' }],
    })
    // An item of the wrong shape for its changeType is refused, where it is (not read as an
    // unknown changeType).
    const wrong = materialMetadataUpdatedEventSchema.safeParse({
      eventId: 'e4',
      eventType: 'MATERIAL_METADATA_UPDATED',
      eventTime: '1',
      payload: { changeType: 'TAGS', materials: [{ tagIds: 'a,b' }] },
    })
    expect(wrong.error?.issues.map((i) => i.path)).toEqual([['payload', 'materials', 0, 'tagIds']])
  })

  test('the union dispatches on eventType and refuses unknown codes', () => {
    const added = assetEventSchema.parse({
      eventId: 'e5',
      eventType: 'MATERIAL_ADDED_TO_FOLDER',
      eventTime: '1',
      payload: { materialIds: ['1'], folderIds: ['2'] },
    })
    expect(added.eventType).toBe('MATERIAL_ADDED_TO_FOLDER')
    expect(
      assetEventSchema.safeParse({
        eventId: 'e6',
        eventType: 'MATERIAL_RENAMED',
        eventTime: '1',
        payload: {},
      }).success,
    ).toBe(false)
  })
})
