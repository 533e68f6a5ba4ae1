import { describe, expect, it } from 'vitest'
import { captureLogger } from '../../test/helpers.ts'
import * as S from '../../test/samples.ts'
import { isKnownEvent } from '../events/parse.ts'
import { type OrderBy, orderKeys } from './order-key.ts'

function keyOf(orderBy: OrderBy, body: string) {
  const { logger, lines } = captureLogger()
  return { key: orderKeys(orderBy, logger)!(body, 1), lines }
}

describe('orderBy', () => {
  it("'folderId': a folder callback's folderId (exact beyond 2^53), or an asset event's single folderIds entry", () => {
    expect(keyOf('folderId', S.folderNullHeavyEpoch).key).toBe('folderId:1949870453162360832')
    expect(keyOf('folderId', S.addedToFolder).key).toBe('folderId:1949870453162360832')
    expect(keyOf('folderId', S.inboundUpload).key).toBeNull()
  })

  it("'materialId': an asset event naming exactly one asset; several or none give no key", () => {
    expect(keyOf('materialId', S.inboundUpload).key).toBe(`materialId:${S.BIG}`)
    expect(keyOf('materialId', S.addedToFolder).key).toBeNull()
    expect(keyOf('materialId', S.folderIsoUpdate).key).toBeNull()
    expect(keyOf('materialId', '{"eventId":"e","eventType":"SOMETHING_NEW","payload":null}').key).toBeNull()
  })

  it('a function: its string or number as the key; nothing, null or empty for none', () => {
    const byType: OrderBy = (event) => event.eventType
    expect(keyOf(byType, S.inboundUpload).key).toBe('MATERIAL_INBOUND_COMPLETED')
    expect(keyOf(() => 42, S.inboundUpload).key).toBe('42')
    // The README's example.
    const folders: OrderBy = (event) =>
      isKnownEvent(event) && event.eventType === 'FOLDER_CONTENT_UPDATE' ? event.folderId : undefined
    expect(keyOf(folders, S.folderIsoUpdate).key).toBe('12')
    expect(keyOf(folders, S.inboundUpload).key).toBeNull()
    for (const none of [undefined, null, '', Number.NaN])
      expect(keyOf(() => none, S.inboundUpload).key).toBeNull()
  })

  it('a function that throws: the event is stored without a key, and the error logged', () => {
    const { key, lines } = keyOf(() => {
      throw new Error('bad key')
    }, S.inboundUpload)
    expect(key).toBeNull()
    expect(lines.join('\n')).toMatch(/error webhooks: orderBy threw.*bad key/)
  })

  it('refuses anything else, with a validation_error naming orderBy', () => {
    for (const bad of ['assetId', 'constructor', 7])
      expect(() => orderKeys(bad as OrderBy, captureLogger().logger)).toThrow(
        expect.objectContaining({
          code: 'validation_error',
          issues: [expect.objectContaining({ path: 'orderBy' })],
        }),
      )
    expect(orderKeys(undefined, captureLogger().logger)).toBeUndefined()
  })
})
