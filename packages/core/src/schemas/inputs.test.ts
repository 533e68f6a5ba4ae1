import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import {
  createMemberInputSchema,
  eventSubscribeInputSchema,
  folderSubscribeInputSchema,
  folderSubscribeRequestSchema,
  impersonationRequestSchema,
  inviteMemberInputSchema,
  isAssetEventType,
  materialInputSchema,
  materialSaveInputSchema,
  materialSaveRequestSchema,
} from './index.ts'

/** `path: message` of every issue, as ServiceValidationError shows them. */
function issues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  if (result.success) return []
  return result.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
}

const material = { key: 'upload/a.png', name: 'a', extension: 'png', size: 10 }

describe('team inputs', () => {
  test('create and invite need an email address', () => {
    expect(createMemberInputSchema.parse({ email: 'ben@acme.com' })).toEqual({ email: 'ben@acme.com' })
    expect(createMemberInputSchema.parse({ email: 'ben@acme.com', password: 'pw-123456' })).toEqual({
      email: 'ben@acme.com',
      password: 'pw-123456',
    })
    expect(issues(createMemberInputSchema, {})).toEqual(['email: is required'])
    expect(issues(createMemberInputSchema, { email: 'ben' })).toEqual(['email: must be an email address'])
    expect(issues(createMemberInputSchema, { email: 'ben@acme.com', password: '' })).toEqual([
      'password: must not be empty',
    ])
    expect(issues(inviteMemberInputSchema, { email: 'ben@acme.com', role: 'admin' })).toEqual([
      '(root): Unrecognized key: "role"',
    ])
  })

  test('impersonate options: shape only', () => {
    expect(impersonationRequestSchema.parse({})).toEqual({})
    expect(impersonationRequestSchema.parse({ expiryHours: 2, callbackUrl: '/library' })).toEqual({
      expiryHours: 2,
      callbackUrl: '/library',
    })
    expect(issues(impersonationRequestSchema, { expiryHours: 0 })).toEqual([
      'expiryHours: must be a positive number of hours',
    ])
    expect(issues(impersonationRequestSchema, { expiryHours: '2' })).toEqual([
      'expiryHours: must be a number of hours',
    ])
    expect(issues(impersonationRequestSchema, { callbackUrl: '' })).toEqual([
      'callbackUrl: must not be empty',
    ])
  })
})

describe('material-save input', () => {
  test('accepts the documented fields and turns ids into strings', () => {
    const parsed = materialSaveInputSchema.parse({
      orgId: 1949870453162360832n,
      materials: [
        { ...material, folderId: 0, width: 1, height: 2, description: 'd', tags: ['x'], link: 'l' },
      ],
    })
    expect(parsed.orgId).toBe('1949870453162360832')
    expect(parsed.materials[0]?.folderId).toBe('0')
  })

  test('requires key, name, extension and a byte size', () => {
    expect(issues(materialInputSchema, {})).toEqual([
      'key: is required',
      'name: is required',
      'extension: is required',
      'size: is required',
    ])
    expect(issues(materialInputSchema, { ...material, key: '' })).toEqual(['key: must not be empty'])
    expect(issues(materialInputSchema, { ...material, size: -1 })).toEqual([
      'size: must not be negative (bytes)',
    ])
    expect(issues(materialInputSchema, { ...material, size: 1.5 })).toEqual([
      'size: must be an integer (bytes)',
    ])
    expect(issues(materialInputSchema, { ...material, size: '10' })).toEqual([
      'size: must be an integer (bytes)',
    ])
    expect(issues(materialInputSchema, { ...material, width: -2 })).toEqual([
      'width: must not be negative (pixels)',
    ])
    expect(issues(materialInputSchema, { ...material, tags: 'a,b' })[0]).toMatch(/^tags: /)
    expect(issues(materialInputSchema, { ...material, folderID: 3 })).toEqual([
      '(root): Unrecognized key: "folderID"',
    ])
    expect(issues(materialInputSchema, { ...material, folderId: 'root' })).toEqual([
      'folderId: must be an id made of decimal digits only, not "root"',
    ])
  })

  test('needs at least one material, and paths point into the list', () => {
    expect(issues(materialSaveInputSchema, { materials: [] })).toEqual([
      'materials: must hold at least one material',
    ])
    expect(issues(materialSaveInputSchema, {})).toEqual(['materials: must be an array of materials'])
    expect(issues(materialSaveInputSchema, { materials: [material, { ...material, name: '' }] })).toEqual([
      'materials.1.name: must not be empty',
    ])
    expect(issues(materialSaveInputSchema, { orgId: 2 ** 60, materials: [material] })[0]).toMatch(
      /^orgId: id \d+ is beyond Number.MAX_SAFE_INTEGER/,
    )
  })

  test('the request schema accepts both body forms and outputs the top-level one', () => {
    expect(materialSaveRequestSchema.parse({ orgId: '12', materials: [material] })).toEqual({
      orgId: '12',
      materials: [material],
    })
    expect(materialSaveRequestSchema.parse({ param: { orgId: 12, materials: [material] } })).toEqual({
      orgId: '12',
      materials: [material],
    })
    expect(issues(materialSaveRequestSchema, { param: { materials: [] } })).toEqual([
      'materials: must hold at least one material',
    ])
  })
})

describe('subscription inputs', () => {
  const callbackUrl = 'https://hooks.acme.com/service/Xq3v9TzK1m2p'

  test('folder subscribe needs folder ids and an http(s) callback URL', () => {
    expect(folderSubscribeInputSchema.parse({ folderIds: [1, '1949870453162360832'], callbackUrl })).toEqual({
      folderIds: ['1', '1949870453162360832'],
      callbackUrl,
    })
    expect(issues(folderSubscribeInputSchema, { folderIds: [], callbackUrl })).toEqual([
      'folderIds: must list at least one folder id',
    ])
    expect(issues(folderSubscribeInputSchema, { folderIds: 5, callbackUrl })).toEqual([
      'folderIds: must be an array of folder ids',
    ])
    for (const bad of ['ftp://hooks.acme.com/x', 'javascript:alert(1)', '/relative', 'not a url']) {
      expect(issues(folderSubscribeInputSchema, { folderIds: [1], callbackUrl: bad })).toEqual([
        'callbackUrl: must be an absolute http(s) URL',
      ])
    }
    expect(issues(folderSubscribeInputSchema, { folderIds: [1] })).toEqual(['callbackUrl: is required'])
    expect(issues(folderSubscribeInputSchema, { folderIds: [1], callbackUrl, eventType: 'OTHER' })).toEqual([
      'eventType: must be FOLDER_CONTENT_UPDATE',
    ])
    // `operation` belongs to the wire body, not to the input of subscribe/unsubscribe.
    expect(
      issues(folderSubscribeInputSchema, { folderIds: [1], callbackUrl, operation: 'DELETE' }),
    ).toHaveLength(1)
    expect(
      folderSubscribeRequestSchema.parse({ folderIds: [1], callbackUrl, operation: 'DELETE' }).operation,
    ).toBe('DELETE')
    expect(
      issues(folderSubscribeRequestSchema, { folderIds: [1], callbackUrl, operation: 'REMOVE' }),
    ).toEqual(['operation: must be ADD or DELETE'])
  })

  test('event subscribe needs one or more of the five event codes', () => {
    expect(eventSubscribeInputSchema.parse({ callbackUrl, eventTypes: ['MATERIAL_DELETED'] })).toEqual({
      callbackUrl,
      eventTypes: ['MATERIAL_DELETED'],
    })
    expect(issues(eventSubscribeInputSchema, { callbackUrl, eventTypes: [] })).toEqual([
      'eventTypes: must list at least one event type',
    ])
    expect(
      issues(eventSubscribeInputSchema, {
        callbackUrl,
        eventTypes: ['MATERIAL_DELETED', 'FOLDER_CONTENT_UPDATE'],
      }),
    ).toEqual([
      'eventTypes.1: must be one of MATERIAL_INBOUND_COMPLETED, MATERIAL_ADDED_TO_FOLDER, MATERIAL_METADATA_UPDATED, MATERIAL_VERSION_CHANGED, MATERIAL_DELETED, not FOLDER_CONTENT_UPDATE',
    ])
  })
})

describe('isAssetEventType', () => {
  test('narrows the codes the SDK can subscribe to, and no others', () => {
    expect(
      ['MATERIAL_DELETED', 'MATERIAL_CREATED', 'FOLDER_CONTENT_UPDATE', ''].filter(isAssetEventType),
    ).toEqual(['MATERIAL_DELETED'])
  })
})
