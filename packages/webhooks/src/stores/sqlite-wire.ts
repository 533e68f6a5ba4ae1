import type { EngineMessage, WriteOp } from './sqlite-protocol.ts'

type Insert = Extract<WriteOp, { t: 'insert' }>
type Settle = Extract<WriteOp, { t: 'settle' }>

/** An insert or an outcome as an array; the rarer writes travel as they are. */
export type WireOp =
  | readonly ['i', string, string, string, number, string | null, string | null, number | null]
  | readonly ['s', string, string, string, number | null, string | null, number | null]
  | Exclude<WriteOp, Insert | Settle>

export type WireMessage =
  | Exclude<EngineMessage, { kind: 'write' }>
  | { kind: 'write'; id: number; ops: WireOp[] }

/**
 * A message for the worker thread. Every event is one insert and one outcome: those go as
 * arrays, as a structured clone writes an object's property names with each object and the
 * thread reads and interns them again (for a batch of inserts, about a third less CPU to clone).
 */
export function toWire(message: EngineMessage): WireMessage {
  if (message.kind !== 'write') return message
  return { kind: 'write', id: message.id, ops: message.ops.map(packOp) }
}

/** The message as the engine takes it, on the thread. */
export function fromWire(message: WireMessage): EngineMessage {
  if (message.kind !== 'write') return message
  return { kind: 'write', id: message.id, ops: message.ops.map(unpackOp) }
}

function packOp(op: WriteOp): WireOp {
  if (op.t === 'insert')
    return ['i', op.key, op.eventType, op.body, op.receivedAt, op.orderKey, op.leaseOwner, op.leaseUntil]
  if (op.t === 'settle') return ['s', op.key, op.owner, op.status, op.nextAttemptAt, op.error, op.at]
  return op
}

function unpackOp(op: WireOp): WriteOp {
  if (!Array.isArray(op)) return op as Exclude<WireOp, readonly unknown[]>
  if (op[0] === 'i') {
    const [, key, eventType, body, receivedAt, orderKey, leaseOwner, leaseUntil] = op
    return { t: 'insert', key, eventType, body, receivedAt, orderKey, leaseOwner, leaseUntil }
  }
  const [, key, owner, status, nextAttemptAt, error, at] = op as Extract<WireOp, readonly ['s', ...unknown[]]>
  return { t: 'settle', key, owner, status, nextAttemptAt, error, at }
}
