import { stringifyJson } from '@service-sdk/core/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { assetEvent, folderCallback } from '../../../test/body-arbitraries.ts'
import { decodeBody } from '../decode.ts'
import type { KnownEventType } from '../events.ts'
import { READERS, SCHEMAS } from '../parse.ts'
import { hideProtoKeys, restoreProtoKeys } from '../proto-keys.ts'
import { compileReader } from './compile.ts'
import { MISMATCH } from './readers.ts'

// The readers generated from core's zod schemas against those schemas (the reference): for any
// body, either the reader declines (MISMATCH, and zod decides) or the schema accepts the body and
// gives the same value, key order included. A reader never accepts what the schema refuses.

/** What readWebhook's zod path makes of a body: the schema's value (`__proto__` keys kept), or undefined. */
function viaZod(eventType: KnownEventType, body: Record<string, unknown>): unknown {
  const result = SCHEMAS[eventType].safeParse(hideProtoKeys(body))
  return result.success ? restoreProtoKeys(result.data) : undefined
}

/** Equal only when zod's output is matched exactly: values, own keys in order, prototypes. */
function expectSame(read: unknown, zod: unknown, text: string): void {
  expect(structure(read), text).toEqual(structure(zod))
}

/**
 * A value as nested arrays: toStrictEqual itself would compare own `constructor` fields (extra
 * fields a body may hold) as the objects' classes, by identity.
 */
function structure(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return Object.is(value, -0) ? '-0' : [typeof value, value]
  const proto = Object.getPrototypeOf(value)
  const kind = proto === Object.prototype ? 'object' : proto === Array.prototype ? 'array' : 'other'
  return [
    kind,
    Reflect.ownKeys(value).map((key) => [key, structure((value as Record<PropertyKey, unknown>)[key])]),
  ]
}

/** A decoded documented body, typed as readWebhook hands it on (eventType set, eventId a string). */
const documented = fc
  .oneof(
    folderCallback,
    assetEvent.map(({ eventType, payload, more, ms, numericId }) => ({
      ...more,
      eventId: numericId ? 1951438207513255936n + BigInt(ms) : `evt-${ms}`,
      eventType,
      eventTime: String(ms),
      payload,
    })),
  )
  .map((value) => {
    const text = stringifyJson(value)
    const body = decodeBody(text)
    const eventType = (body.eventType ?? 'FOLDER_CONTENT_UPDATE') as KnownEventType
    return { text, eventType, body: { ...body, eventType } }
  })

/** Values a schema may refuse or normalise: ids with leading zeros, beyond 2^63, negative, fractional. */
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    '',
    '0',
    '007',
    '9223372036854775807',
    '9223372036854775808',
    '12345678901234567890',
    -1,
    1.5,
    2 ** 53,
    0,
    'x',
    true,
    [],
    {},
    [null],
    [{}],
    { changeType: 'BASIC' },
    JSON.parse('{"__proto__":{"a":1},"b":2}'),
  ),
  fc.jsonValue({ maxDepth: 2 }),
)

/** Every path to a value in a JSON value. */
function paths(value: unknown, at: PropertyKey[] = [], out: PropertyKey[][] = []): PropertyKey[][] {
  if (typeof value !== 'object' || value === null) return out
  for (const key of Object.keys(value)) {
    const path = [...at, Array.isArray(value) ? Number(key) : key]
    out.push(path)
    paths((value as Record<string, unknown>)[key], path, out)
  }
  return out
}

/** `body` with the value at `path` replaced (or deleted, for undefined), copying the way down. */
function replaced(body: unknown, path: readonly PropertyKey[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<PropertyKey, unknown>
  const [key, ...rest] = path
  const next = replaced(copy[key!], rest, value)
  if (next === undefined && !Array.isArray(copy)) delete copy[key!]
  else copy[key!] = next
  return copy
}

const readKnownShape = (eventType: KnownEventType, body: Record<string, unknown>) => READERS[eventType](body)

describe('the readers generated from the zod schemas', () => {
  it('read every part of the six webhook schemas (none left to zod)', () => {
    for (const schema of Object.values(SCHEMAS)) expect(compileReader(schema).declined).toEqual([])
  })

  it('leave to zod what they are not made for, naming where', () => {
    const schema = z.looseObject({
      a: z.string().min(2),
      b: z.array(z.union([z.string(), z.array(z.string())])),
    })
    const { read, declined } = compileReader(schema)
    expect(declined).toEqual(['$.a (string with checks)', '$.b[] (union)'])
    expect(read({ a: 'xy', b: [] })).toBe(MISMATCH)
  })

  it('reads every documented body as the schema does (none declined unless it holds a __proto__ key)', () => {
    fc.assert(
      fc.property(documented, ({ text, eventType, body }) => {
        const read = readKnownShape(eventType, body)
        if (text.includes('"__proto__"')) {
          if (read !== MISMATCH) expectSame(read, viaZod(eventType, body), text)
          return
        }
        expect(read, text).not.toBe(MISMATCH)
        expectSame(read, viaZod(eventType, body), text)
      }),
      { numRuns: 2000 },
    )
  })

  it('on altered bodies, either declines or gives the schema’s value; never accepts what the schema refuses', () => {
    const altered = documented.chain(({ eventType, body }) =>
      fc
        .array(fc.tuple(fc.nat(), fc.oneof(oddValue, fc.constant(undefined))), { minLength: 1, maxLength: 3 })
        .map((changes) => {
          let value: unknown = body
          for (const [index, replacement] of changes) {
            const all = paths(value)
            if (all.length > 0) value = replaced(value, all[index % all.length]!, replacement)
          }
          return { eventType, body: value as Record<string, unknown> }
        }),
    )
    let accepted = 0
    fc.assert(
      fc.property(altered, ({ eventType, body }) => {
        const read = readKnownShape(eventType, body)
        const zod = viaZod(eventType, body)
        const text = JSON.stringify(body)
        if (read === MISMATCH) return
        accepted++
        expect(zod, `the schema refuses what the reader accepted: ${text}`).toBeDefined()
        expectSame(read, zod, text)
      }),
      { numRuns: 5000 },
    )
    // The alterations leave many bodies valid: those were compared, not only declined.
    expect(accepted).toBeGreaterThan(500)
  })

  it('normalises ids as the schema does, and declines what the schema refuses', () => {
    const body = (materialIds: unknown[]) => ({
      eventId: 'e',
      eventType: 'MATERIAL_ADDED_TO_FOLDER',
      eventTime: '1',
      payload: { materialIds },
    })
    expect(readKnownShape('MATERIAL_ADDED_TO_FOLDER', body(['007', 42, '9223372036854775807']))).toEqual(
      body(['7', '42', '9223372036854775807']),
    )
    for (const bad of ['9223372036854775808', -1, 1.5, 2 ** 53, '1e3', null]) {
      expect(readKnownShape('MATERIAL_ADDED_TO_FOLDER', body([bad]))).toBe(MISMATCH)
      expect(viaZod('MATERIAL_ADDED_TO_FOLDER', body([bad]))).toBeUndefined()
    }
  })
})
