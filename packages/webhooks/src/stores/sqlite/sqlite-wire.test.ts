import { describe, expect, it } from 'vitest'
import type { EngineMessage } from './sqlite-protocol.ts'
import { fromWire, toWire } from './sqlite-wire.ts'

describe('the SQLite thread wire format', () => {
  it('carries every write op through a structured clone unchanged', () => {
    const message: EngineMessage = {
      kind: 'write',
      id: 7,
      ops: [
        {
          t: 'insert',
          key: 'k',
          eventType: 'X',
          body: '{"a":1}',
          receivedAt: 1,
          orderKey: null,
          originals: null,
          leaseOwner: 'w:0',
          leaseUntil: 5,
        },
        {
          t: 'insert',
          key: 'k2',
          eventType: 'Y',
          body: '{}',
          receivedAt: 2,
          orderKey: 'folder:1',
          originals: '{"key":"k\\u0000"}',
          leaseOwner: null,
          leaseUntil: null,
        },
        { t: 'settle', key: 'k', owner: 'w:1', status: 'done', nextAttemptAt: null, error: null, at: 3 },
        {
          t: 'settle',
          key: 'k2',
          owner: 'w:1',
          status: 'pending',
          nextAttemptAt: 9,
          error: 'boom',
          at: null,
        },
        { t: 'claim', owner: 'w:2', limit: 32, now: 4, leaseMs: 1000 },
        { t: 'renew', key: 'k', owner: 'w:2', leaseUntil: 5 },
        { t: 'requeue', keys: ['k'], now: 6 },
        { t: 'prune', status: 'done', before: 7, limit: -1 },
      ],
    }
    const wire = toWire(message)
    // Inserts and outcomes as one flat array of their fields, no object or array per op.
    expect(
      wire.kind === 'write' && wire.ops.slice(0, 30).every((v) => typeof v !== 'object' || v === null),
    ).toBe(true)
    expect(fromWire(structuredClone(wire))).toEqual(message)
    const read: EngineMessage = { kind: 'read', id: 8, op: { t: 'counts' } }
    expect(fromWire(structuredClone(toWire(read)))).toEqual(read)
  })
})
