import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SqliteEngine } from './sqlite-engine.ts'
import type { EngineConfig, WriteOp } from './sqlite-protocol.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-engine-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const NORMAL = 1
const FULL = 2
const EXTRA = 3

const insert = (key: string): WriteOp => ({
  t: 'insert',
  key,
  eventType: 'X',
  body: '{}',
  receivedAt: 1,
  leaseOwner: null,
  leaseUntil: null,
  orderKey: null,
  originals: null,
})
const claim: WriteOp = { t: 'claim', owner: 'w:1', limit: 10, now: 2, leaseMs: 1000 }
const settle = (key: string): WriteOp => ({
  t: 'settle',
  key,
  owner: 'w:1',
  status: 'done',
  nextAttemptAt: null,
  error: null,
  at: 3,
})

/** An engine on a file of its own in `dir`, table `e`, never waiting for a lock. */
const open = (file: string, synchronous: EngineConfig['synchronous']) =>
  new SqliteEngine({ path: join(dir, file), table: 'e', synchronous, busyTimeoutMs: 0 })

describe('SqliteEngine commits', () => {
  it('fsyncs what is acknowledged at the configured level, and not claims or outcomes alone', () => {
    const engine = open('a.db', 'EXTRA')
    expect(engine.write([insert('a'), insert('b')])).toEqual({ values: ['inserted', 'inserted'] })
    expect(engine.synchronousLevel()).toBe(EXTRA)
    expect(engine.write([claim])).toMatchObject({ values: [expect.any(Array)] })
    expect(engine.synchronousLevel()).toBe(NORMAL)
    // An insert in the same commit as outcomes makes the whole commit durable.
    expect(engine.write([settle('a'), insert('c')])).toEqual({ values: [true, 'inserted'] })
    expect(engine.synchronousLevel()).toBe(EXTRA)
    engine.write([settle('b')])
    expect(engine.synchronousLevel()).toBe(NORMAL)
    engine.write([{ t: 'requeue', keys: null, now: 4 }])
    expect(engine.synchronousLevel()).toBe(EXTRA)
    engine.close()
  })

  it('fails only the op whose statement failed, and commits the others', () => {
    const engine = open('c.db', 'FULL')
    const broken = { ...insert('b'), body: null } as unknown as WriteOp
    expect(engine.write([insert('a'), broken, insert('c')])).toEqual({
      values: ['inserted', undefined, 'inserted'],
      errors: [[1, expect.stringMatching(/NOT NULL/)]],
    })
    expect(engine.read({ t: 'counts' })).toEqual({
      ok: true,
      value: expect.arrayContaining([{ status: 'pending', n: 2 }]),
    })
    engine.close()
  })

  it('returns claimed rows as arrays, in EVENT_COLUMNS order', () => {
    const engine = open('d.db', 'FULL')
    engine.write([insert('a')])
    const outcome = engine.write([claim])
    expect(outcome).toEqual({
      values: [[['a', 'X', '{}', 1, 'processing', 1, 1, 1002, null, null, null, null]]],
    })
    engine.close()
  })

  it('settles an event stored leased only under its owner, whichever way it finds the row', () => {
    const engine = open('e.db', 'FULL')
    const leased = (key: string): WriteOp => {
      const op = insert(key) as Extract<WriteOp, { t: 'insert' }>
      return { ...op, leaseOwner: 'w:1', leaseUntil: 1000 }
    }
    engine.write([leased('a'), leased('b'), leased('c')])
    const settleBy = (key: string, owner: string): WriteOp => {
      const op = settle(key) as Extract<WriteOp, { t: 'settle' }>
      return { ...op, owner }
    }
    // Not the owner: nothing changes, and the owner can still settle it.
    expect(engine.write([settleBy('a', 'w:2'), settleBy('a', 'w:1')])).toEqual({ values: [false, true] })
    expect(engine.write([settleBy('b', 'w:1'), settleBy('b', 'w:1')])).toEqual({ values: [true, false] })
    // Re-claimed by another owner once its lease expired: the new owner settles it, not the old one.
    const reclaimed = engine.write([{ t: 'claim', owner: 'w:3', limit: 10, now: 2000, leaseMs: 1000 }]) as {
      values: unknown[][][]
    }
    expect(reclaimed.values[0]?.map((row) => row[0])).toEqual(['c'])
    expect(engine.write([settleBy('c', 'w:1'), settleBy('c', 'w:3')])).toEqual({ values: [false, true] })
    expect(engine.read({ t: 'counts' })).toEqual({
      ok: true,
      value: expect.arrayContaining([{ status: 'done', n: 3 }]),
    })
    engine.close()
  })

  it('keeps FULL for the default configuration', () => {
    const engine = open('b.db', 'FULL')
    engine.write([insert('a')])
    expect(engine.synchronousLevel()).toBe(FULL)
    engine.close()
  })
})
