import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { WebhookError } from '../errors.ts'
import { admit } from './admit.ts'

/** What admission decides: the key and type, or the refusal (code and message). */
function outcome(text: string, wantsBody: boolean) {
  try {
    const { key, eventType } = admit(text, wantsBody)
    return { key, eventType }
  } catch (error) {
    if (!WebhookError.isInstance(error)) throw error
    return { code: error.code, message: error.message }
  }
}

/** A JSON value as raw text, including what JSON.parse cannot read exactly or at all. */
const rawValue = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('""', 'null', '0', '-1', '1.5', '1e3', 'true', '{}', '[]', '{"a":1}'),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n }).map(String),
  // Past 2^53: JSON.parse rounds these; with a leading zero only the lossless parse reads them.
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }).map((n) => `0${n}`),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
)
const member = (name: string) =>
  fc.option(
    rawValue.map((v) => `"${name}":${v}`),
    { nil: undefined },
  )
/** Bodies around the two fields admission reads, plus malformed and deeply nested ones. */
const body = fc.oneof(
  fc
    .tuple(member('eventId'), member('eventType'), fc.jsonValue({ maxDepth: 3 }), fc.boolean())
    .map(([id, type, payload, spaced]) => {
      const members = [id, type, `"payload":${JSON.stringify(payload) ?? 'null'}`].filter(Boolean)
      return `{${members.join(spaced ? ' , ' : ',')}}`
    }),
  fc
    .integer({ min: 60, max: 70 })
    .map((depth) => `{"eventId":"e","v":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 60 }),
)

describe('admit', () => {
  it('admits and refuses the same bodies with the same key and type, with or without a parsed body', () => {
    fc.assert(
      fc.property(body, (text) => {
        expect(outcome(text, false)).toEqual(outcome(text, true))
      }),
      { numRuns: 5000 },
    )
  })

  it('leaves the parsed body out when asked for none and both fields are strings (every asset event)', () => {
    const text =
      '{"eventId":"evt-1","eventType":"MATERIAL_DELETED","payload":{"materialIds":[1951438207513255936]}}'
    expect(admit(text, false)).toEqual({ key: 'evt-1', eventType: 'MATERIAL_DELETED' })
    expect(admit(text, true).body).toEqual({
      eventId: 'evt-1',
      eventType: 'MATERIAL_DELETED',
      payload: { materialIds: ['1951438207513255936'] },
    })
  })

  it('reads the body losslessly when a number decides the key: a folder callback is keyed by its hash', () => {
    const callback = '{"folderId":1949870453162360832,"eventTime":1753946835010}'
    expect(admit(callback, false)).toEqual(admit(callback, true))
    expect(admit(callback, false).key).toMatch(/^sha256:/)
    const numericId = '{"eventId":19514382075132559361,"eventType":"MATERIAL_DELETED"}'
    expect(admit(numericId, false).body).toBeDefined()
  })
})
