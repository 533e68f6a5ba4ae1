import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as S from '../../test/samples.ts'
import { decodeBody } from '../events/decode.ts'
import { canonicalJson, canonicalKey, dedupeKey } from './dedupe-key.ts'

/** The canonical form as the releases before this one built it: one string, keys sorted. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = []
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k]
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${reference(v)}`)
    }
    return `{${parts.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

describe('the de-duplication key', () => {
  it('of a folder callback is what earlier releases stored for it (existing inboxes still find re-deliveries)', () => {
    expect(dedupeKey(decodeBody(S.folderNullHeavyEpoch))).toBe(
      'sha256:752cd8d1bba96dbf0ae880a58403dc87ed8724b67c3dc289337d091381642e2f',
    )
    expect(dedupeKey(decodeBody(S.folderIsoUpdate))).toBe(
      'sha256:5e89fd1c81cf6fdef1a9a7df6853ee35b9f4df6fe648663476d7d414b14ad064',
    )
    expect(dedupeKey(decodeBody(S.folderDelete))).toBe(
      'sha256:52f35b23bc9e5b3b86769e84f6610e7aeac4b79d95b503057e63bcba69013ce0',
    )
  })

  it('hashes the same canonical text as before, for any JSON (lone surrogates, long strings included)', () => {
    const strings = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ minLength: 70_000, maxLength: 70_010 }),
    )
    const value = fc.dictionary(
      fc.string({ unit: 'binary' }),
      fc.jsonValue({ maxDepth: 3 }).chain((v) => fc.oneof(fc.constant(v), strings)),
    )
    fc.assert(
      fc.property(value, (body) => {
        const text = reference(body)
        expect(canonicalJson(body)).toBe(text)
        expect(canonicalKey(body)).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`)
      }),
      { numRuns: 100 },
    )
  })

  it('keeps apart folder callbacks that differ only in a lone surrogate or U+FFFD', () => {
    const keys = ['\uD800', '\uDBFF', '\uDC00', '\uFFFD'].map((c) =>
      dedupeKey({ eventType: 'FOLDER_CONTENT_UPDATE', folderId: '1', name: `a${c}` }),
    )
    expect(new Set(keys).size).toBe(4)
  })

  it('is the eventId exactly as sent, whatever string it is', () => {
    for (const id of ['1951438207513255936', 'evt\u0000', 'evt\uD800', 'x'.repeat(5000)])
      expect(dedupeKey({ eventId: id })).toBe(id)
    expect(dedupeKey({ eventId: 42 })).toBe('42')
  })
})
