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
    expect(engine.write([insert('a'), insert('b')])).toEqual({
      results: [
        { ok: true, value: 'inserted' },
        { ok: true, value: 'inserted' },
      ],
    })
    expect(engine.synchronousLevel()).toBe(EXTRA)
    expect(engine.write([claim])).toMatchObject({ results: [{ ok: true }] })
    expect(engine.synchronousLevel()).toBe(NORMAL)
    // An insert in the same commit as outcomes makes the whole commit durable.
    expect(engine.write([settle('a'), insert('c')])).toMatchObject({
      results: [
        { ok: true, value: true },
        { ok: true, value: 'inserted' },
      ],
    })
    expect(engine.synchronousLevel()).toBe(EXTRA)
    engine.write([settle('b')])
    expect(engine.synchronousLevel()).toBe(NORMAL)
    engine.write([{ t: 'requeue', keys: null, now: 4 }])
    expect(engine.synchronousLevel()).toBe(EXTRA)
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
