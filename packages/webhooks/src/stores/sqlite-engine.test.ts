import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SqliteEngine } from './sqlite-engine.ts'
import type { WriteOp } from './sqlite-protocol.ts'

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
  orderKey: null,
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

describe('SqliteEngine commits', () => {
  it('fsyncs what is acknowledged at the configured level, and not claims or outcomes alone', () => {
    const engine = new SqliteEngine({
      path: join(dir, 'a.db'),
      table: 'e',
      synchronous: 'EXTRA',
      busyTimeoutMs: 0,
    })
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
    const engine = new SqliteEngine({
      path: join(dir, 'c.db'),
      table: 'e',
      synchronous: 'FULL',
      busyTimeoutMs: 0,
    })
    const broken = { ...insert('b'), body: null } as unknown as WriteOp
    expect(engine.write([insert('a'), broken, insert('c')])).toEqual({
      values: ['inserted', undefined, 'inserted'],
      errors: [[1, expect.stringMatching(/NOT NULL/)]],
    })
    expect(engine.read({ t: 'counts' })).toEqual({ ok: true, value: [{ status: 'pending', n: 2 }] })
    engine.close()
  })

  it('keeps FULL for the default configuration', () => {
    const engine = new SqliteEngine({
      path: join(dir, 'b.db'),
      table: 'e',
      synchronous: 'FULL',
      busyTimeoutMs: 0,
    })
    engine.write([insert('a')])
    expect(engine.synchronousLevel()).toBe(FULL)
    engine.close()
  })
})
