import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  digest,
  eventColumns,
  INDEXED_BYTES,
  keyColumn,
  lineColumn,
  textColumn,
  withOriginals,
} from './columns.ts'

describe('what a text column holds', () => {
  it('keeps a string it can hold as it is (the form every earlier release stored)', () => {
    for (const key of ['1951438207513255936', 'sha256:abc', 'héllo ✓ 😀', 'x'.repeat(INDEXED_BYTES)])
      expect(keyColumn(key)).toBe(key)
  })

  it('holds as a digest what it cannot: a NUL, a lone surrogate, an indexed string past INDEXED_BYTES, a digest', () => {
    const digested = ['a\u0000', 'a\uD800', 'a\uDC00', 'é'.repeat(INDEXED_BYTES / 2 + 1), digest('a')]
    for (const key of digested) expect(keyColumn(key)).toMatch(/^~sha256:[0-9a-f]{64}$/)
    expect(new Set(digested.map(keyColumn)).size).toBe(digested.length)
    // Not indexed: any length is held as given.
    expect(textColumn('é'.repeat(INDEXED_BYTES))).toBe('é'.repeat(INDEXED_BYTES))
  })

  it('digests a well-formed string as SHA-256 of its UTF-8 (what PostgreSQL computes), a lone surrogate apart from U+FFFD', () => {
    const text = `héllo-${'z'.repeat(2000)}`
    expect(digest(text)).toBe(`~sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`)
    expect(digest('a\uD800')).not.toBe(digest('a\uFFFD'))
    expect(digest('\uD83D\uDE00')).toBe(digest('😀'))
    expect(digest('\uDE00\uD83D')).not.toBe(digest('\uD83D\uDE00'))
  })

  it('puts back exactly what went into originals', () => {
    const event = {
      key: 'k\u0000',
      eventType: 'T\uD800',
      body: '{"a":"\u0000"}',
      receivedAt: 1,
      orderKey: 'o\uDC00',
    }
    const columns = eventColumns(event)
    expect([columns.key, columns.eventType, columns.body, columns.orderKey].join()).not.toMatch(
      /[\0\uD800\uDC00]/u,
    )
    const read = withOriginals(
      {
        ...event,
        key: columns.key,
        eventType: columns.eventType,
        body: columns.body,
        orderKey: columns.orderKey,
      } as never,
      columns.originals,
    )
    expect(read).toMatchObject(event)
    expect(eventColumns({ key: 'k', eventType: 'T', body: '{}', receivedAt: 1 }).originals).toBeNull()
  })

  it('shows a NUL or a lone surrogate of an error line as U+FFFD', () => {
    expect(lineColumn('bad \u0000 \uD800 ok')).toBe('bad \uFFFD \uFFFD ok')
    expect(lineColumn('fine')).toBe('fine')
  })
})
