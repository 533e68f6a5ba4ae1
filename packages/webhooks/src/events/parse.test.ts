import { isKnownChangeType, type OpenEnum } from '@service-sdk/core/schemas'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as S from '../../test/samples.ts'
import { WebhookError } from '../errors.ts'
import { decodeBody } from './decode.ts'
import type { KnownEventType, UnknownWebhookEvent, WebhookEventOf } from './events.ts'
import { isKnownEvent, parseWebhook, type ReadOptions, readWebhook } from './parse.ts'

function parseAs<T extends string>(body: string, eventType: T) {
  const event = parseWebhook(body)
  expect(event.eventType).toBe(eventType)
  return event as T extends keyof Known ? Known[T] : UnknownWebhookEvent
}
type Known = { [K in KnownEventType]: WebhookEventOf<K> }

describe('parseWebhook: the folder-content callback', () => {
  it('parses the null-heavy live sample: epoch-ms eventTime, nulls kept as null, no orgId', () => {
    const event = parseAs(S.folderNullHeavyEpoch, 'FOLDER_CONTENT_UPDATE')
    expect(event.eventTime).toBe('1753946835010')
    expect(event.eventTimeMs).toBe(1753946835010)
    expect(event.folderId).toBe('1949870453162360832')
    expect(event.type).toBe('ADD')
    expect('orgId' in event).toBe(false)
    const [asset] = event.assets ?? []
    expect(asset).toEqual({
      id: S.BIG,
      parentIds: ['1949870453162360832'],
      userId: S.USER,
      name: 'IMG_0042.jpg',
      downloadUrl: null,
      source: 2,
      link: null,
      extension: 'jpg',
      duration: null,
      size: null,
      width: null,
      height: null,
      description: null,
      score: null,
      createUser: S.USER,
    })
  })

  it('normalises an ISO 8601 eventTime with an offset, keeping the original string', () => {
    const event = parseAs(S.folderIsoUpdate, 'FOLDER_CONTENT_UPDATE')
    expect(event.eventTime).toBe('2025-07-31T15:27:15.010+08:00')
    expect(event.eventTimeMs).toBe(Date.UTC(2025, 6, 31, 7, 27, 15, 10))
    expect(event.orgId).toBe('4021')
    expect(event.assets?.[0]?.size).toBe(220)
    // Absent fields stay absent.
    expect(event.assets?.[0]).not.toHaveProperty('width')
  })

  it('both eventTime forms of the same instant give the same eventTimeMs', () => {
    const epoch = parseAs(S.folderNullHeavyEpoch, 'FOLDER_CONTENT_UPDATE')
    const iso = parseAs(
      S.folderNullHeavyEpoch.replace('"1753946835010"', '"2025-07-31T15:27:15.010+08:00"'),
      'FOLDER_CONTENT_UPDATE',
    )
    expect(iso.eventTimeMs).toBe(epoch.eventTimeMs)
  })

  it('accepts eventTime as a JSON number, turning the original into its string', () => {
    const event = parseAs(S.folderDelete.replace('"1753946900000"', '1753946900000'), 'FOLDER_CONTENT_UPDATE')
    expect(event.eventTime).toBe('1753946900000')
    expect(event.eventTimeMs).toBe(1753946900000)
  })

  it('parses DELETE with identifying fields only', () => {
    const event = parseAs(S.folderDelete, 'FOLDER_CONTENT_UPDATE')
    expect(event.type).toBe('DELETE')
    expect(event.assets).toEqual([
      { id: S.BIG },
      { id: '1951438207513255937', parentIds: ['1949870453162360832'] },
    ])
  })

  it('takes a body without eventType but shaped like a folder callback as one (the documented default)', () => {
    const event = parseWebhook(S.folderDelete.replace('"eventType":"FOLDER_CONTENT_UPDATE",', ''))
    expect(event.eventType).toBe('FOLDER_CONTENT_UPDATE')
  })
})

describe('parseWebhook: asset events', () => {
  it('MATERIAL_INBOUND_COMPLETED, formal upload', () => {
    const event = parseAs(S.inboundUpload, 'MATERIAL_INBOUND_COMPLETED')
    expect(event.eventId).toBe('evt_inbound_1')
    expect(event.eventTimeMs).toBe(1753946835010)
    expect(event.payload).toEqual({
      source: 'UPLOAD_ASSETS',
      initiatorUserId: S.USER,
      uploadResults: [
        {
          id: S.BIG,
          name: 'hero',
          extension: 'png',
          size: 1048576,
          width: 1920,
          height: 1080,
          uploadStatus: 1,
        },
      ],
      materialIds: [S.BIG],
    })
  })

  it('MATERIAL_INBOUND_COMPLETED, confirmed pending intake (a map of ids)', () => {
    const event = parseAs(S.inboundPending, 'MATERIAL_INBOUND_COMPLETED')
    expect(event.payload.source).toBe('PENDING_INBOUND_CONFIRM')
    expect(event.payload.pendingInboundIdToMaterialId).toEqual({ '1951438207513255001': S.BIG, '77': '78' })
    expect(event.payload).not.toHaveProperty('materialIds')
  })

  it('MATERIAL_ADDED_TO_FOLDER', () => {
    const event = parseAs(S.addedToFolder, 'MATERIAL_ADDED_TO_FOLDER')
    expect(event.payload).toEqual({ materialIds: [S.BIG, '55'], folderIds: ['1949870453162360832'] })
  })

  it.each(Object.entries(S.metadataByChangeType))(
    'MATERIAL_METADATA_UPDATED, changeType %s',
    (changeType, body) => {
      const event = parseAs(body, 'MATERIAL_METADATA_UPDATED')
      expect(event.payload.changeType).toBe(changeType)
      expect(event.payload.materialIds).toEqual([S.BIG])
      expect(event.payload.materials).toHaveLength(1)
    },
  )

  it('MATERIAL_METADATA_UPDATED materials are typed by changeType', () => {
    const event = parseAs(S.metadataByChangeType.TAGS, 'MATERIAL_METADATA_UPDATED')
    if (!isKnownChangeType(event.payload) || event.payload.changeType !== 'TAGS') throw new Error('narrowing')
    expectTypeOf(event.payload.materials).toEqualTypeOf<
      Extract<typeof event.payload, { changeType: 'TAGS' }>['materials']
    >()
    expect(event.payload.materials?.[0]).toEqual({
      materialId: S.BIG,
      tagIds: ['1951438207513200001', '17'],
      tagNames: ['summer', 'homepage'],
    })
    const owner = parseAs(S.metadataByChangeType.OWNER, 'MATERIAL_METADATA_UPDATED')
    expect(owner.payload.materials?.[0]).toEqual({ materialId: '1951438207513255940', ownerUserId: S.USER })
    const custom = parseAs(S.metadataByChangeType.CUSTOM_FIELD, 'MATERIAL_METADATA_UPDATED')
    expect(custom.payload.materials?.[0]).toMatchObject({
      customFields: [
        { templateId: '501', name: 'Quarter', value: 'Q3' },
        { templateId: '1951438207513200502' },
      ],
    })
  })

  it('MATERIAL_VERSION_CHANGED: SET_COVER and REMOVE with its optional fields', () => {
    const cover = parseAs(S.versionSetCover, 'MATERIAL_VERSION_CHANGED')
    expect(cover.payload).toEqual({
      coverMaterialId: S.BIG,
      newMaterialId: '1951438207513255941',
      action: 'SET_COVER',
      version: 2,
    })
    const remove = parseAs(S.versionRemove, 'MATERIAL_VERSION_CHANGED')
    expect(remove.payload).toMatchObject({
      action: 'REMOVE',
      removeType: 'DELETE',
      versionGroupDissolved: true,
    })
  })

  it('MATERIAL_DELETED: RECYCLE with its snapshot, then PERMANENT with ids only', () => {
    const recycle = parseAs(S.deletedRecycle, 'MATERIAL_DELETED')
    expect(recycle.payload.deleteAction).toBe('RECYCLE')
    expect(recycle.payload.materials?.[0]).toMatchObject({
      materialId: S.BIG,
      ownerUserId: S.USER,
      tagIds: ['17'],
    })
    const permanent = parseAs(S.deletedPermanent, 'MATERIAL_DELETED')
    expect(permanent.payload).toEqual({ materialIds: [S.BIG], deleteAction: 'PERMANENT' })
    expect(permanent.eventTimeMs).toBe(1756538860000)
  })
})

describe('parseWebhook: tolerance', () => {
  it('keeps unknown fields at every level, and integers beyond 2^53 keep their digits', () => {
    const event = parseAs(S.withUnknownFields, 'MATERIAL_DELETED') as unknown as Record<string, unknown> & {
      payload: Record<string, unknown> & { materials: Array<Record<string, unknown>> }
    }
    expect(event.traceId).toBe('t-1')
    expect(event.payload.operator).toEqual({ id: S.USER, via: 'api' })
    expect(event.payload.materials[0]?.sizeBytes).toBe('12345678901234567890')
  })

  it('keeps an unknown eventType as a generic event, whole', () => {
    const event = parseWebhook(S.unknownEventType)
    expect(isKnownEvent(event)).toBe(false)
    expect(event).toEqual({
      eventId: 'evt_new_kind',
      eventType: 'MATERIAL_SHARED',
      eventTime: '1753946870000',
      eventTimeMs: 1753946870000,
      payload: { materialIds: [S.BIG], sharedWith: [{ userId: S.USER }] },
    })
  })

  it('types known events for switch narrowing once isKnownEvent holds', () => {
    const event = parseWebhook(S.deletedPermanent)
    if (!isKnownEvent(event)) throw new Error('expected a known event')
    switch (event.eventType) {
      case 'MATERIAL_DELETED':
        expectTypeOf(event.payload.deleteAction).toEqualTypeOf<
          OpenEnum<'RECYCLE' | 'PERMANENT'> | undefined
        >()
        expect(event.payload.deleteAction).toBe('PERMANENT')
        break
      default:
        throw new Error(`unexpected ${event.eventType}`)
    }
  })

  it('accepts bytes as well as text', () => {
    expect(parseWebhook(new TextEncoder().encode(S.addedToFolder)).eventType).toBe('MATERIAL_ADDED_TO_FOLDER')
  })
})

describe('parseWebhook: refusals', () => {
  const refusal = (body: string | Uint8Array, options: ReadOptions = {}) => {
    try {
      parseWebhook(body, options)
    } catch (error) {
      expect(WebhookError.isInstance(error)).toBe(true)
      return error as WebhookError
    }
    throw new Error('expected a refusal')
  }

  it.each([
    ['empty', '', 'malformed_json'],
    ['whitespace', '  \n', 'malformed_json'],
    ['malformed', '{"eventId":', 'malformed_json'],
    ['an array', '[1,2]', 'invalid_payload'],
    ['a string', '"x"', 'invalid_payload'],
    ['null', 'null', 'invalid_payload'],
    ['too deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'invalid_payload'],
    [
      'too deep in an object',
      `{"eventType":"X","a":${'{"a":'.repeat(65)}1${'}'.repeat(65)}}`,
      'invalid_payload',
    ],
  ])('%s', (_name, body, code) => {
    expect(refusal(body).code).toBe(code)
  })

  it('refuses invalid UTF-8', () => {
    expect(refusal(new Uint8Array([0x7b, 0xff, 0x7d])).code).toBe('malformed_json')
  })

  it('with strict, refuses a known event that breaks its schema, saying where', () => {
    const body = S.deletedPermanent.replace('"deleteAction":"PERMANENT"', '"deleteAction":42')
    const error = refusal(body, { strict: true })
    expect(error.code).toBe('invalid_payload')
    expect(error.message).toContain('payload.deleteAction')
    expect(refusal(S.deletedPermanent.replace('PERMANENT', 'ARCHIVE'), { strict: true }).message).toMatch(
      /payload\.deleteAction: a value this SDK does not know .*"ARCHIVE"/,
    )
  })

  it('with strict, refuses a known event whose eventTime is not a time', () => {
    const body = S.deletedPermanent.replace('"1756538860000"', '"yesterday"')
    expect(refusal(body, { strict: true }).message).toMatch(/eventTime/)
  })

  it('allows nesting up to the limit', () => {
    const deep = `{"eventType":"X","a":${'{"a":'.repeat(60)}1${'}'.repeat(60)}}`
    expect(parseWebhook(deep).eventType).toBe('X')
  })
})

describe('readWebhook: what the schema does not know is delivered, with warnings', () => {
  const read = (body: string) => readWebhook(decodeBody(body), { receivedAt: 42 })

  it('a known event with a field of another type: delivered as sent, one warning naming the field', () => {
    const { event, warnings } = read(
      S.deletedPermanent.replace('"deleteAction":"PERMANENT"', '"deleteAction":42'),
    )
    expect(event.eventType).toBe('MATERIAL_DELETED')
    expect((event as { payload: unknown }).payload).toEqual({
      materialIds: [S.BIG],
      deleteAction: 42,
    })
    expect(warnings).toEqual([
      { path: 'payload.deleteAction', value: 42, message: expect.stringMatching(/expected string/) },
    ])
  })

  it('an eventTime that is not a time: kept, eventTimeMs is the time received, and a warning', () => {
    const { event, warnings } = read(S.deletedPermanent.replace('"1756538860000"', '"yesterday"'))
    expect(event).toMatchObject({ eventTime: 'yesterday', eventTimeMs: 42 })
    expect(warnings.map((w) => w.path)).toEqual(['eventTime'])
  })

  it('a body without eventType is a folder callback (the documented default), warned about what it lacks', () => {
    const { event, warnings } = read('{"eventId":"e"}')
    expect(event.eventType).toBe('FOLDER_CONTENT_UPDATE')
    expect(warnings.map((w) => w.path).sort()).toEqual(['assets', 'folderId', 'type'])
  })

  it('a numeric eventType is an event type nobody knows, with a warning', () => {
    const { event, warnings } = read('{"eventType":5}')
    expect(event.eventType).toBe('5')
    expect(isKnownEvent(event)).toBe(false)
    expect(warnings).toEqual([{ path: 'eventType', value: 5, message: 'a string' }])
  })

  it('unknown enum values are kept, typed, and each warned about once per place', () => {
    const { event, warnings } = read(
      '{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1,"type":"MOVE","assets":[{"id":1,"source":4},{"id":2,"source":2}]}',
    )
    expect(event).toMatchObject({
      type: 'MOVE',
      assets: [
        { id: '1', source: 4 },
        { id: '2', source: 2 },
      ],
    })
    expect(warnings.map((w) => [w.path, w.value])).toEqual([
      ['type', 'MOVE'],
      ['assets.0.source', 4],
    ])
  })

  it('a folder callback without eventTime has none, and eventTimeMs is the time received; no warning', () => {
    const { event, warnings } = read(S.folderDelete.replace('"eventTime":"1753946900000",', ''))
    expect(event).not.toHaveProperty('eventTime')
    expect(event.eventTimeMs).toBe(42)
    expect(warnings).toEqual([])
  })
})
