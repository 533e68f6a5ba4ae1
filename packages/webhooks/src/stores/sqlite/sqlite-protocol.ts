import type { EventStatus, PageQuery } from '../store.ts'

/**
 * What the SQLite store and its engine say to each other: plain data, so it can cross to the
 * engine's worker thread (structured clone) or be answered on this thread.
 */

export type WriteOp =
  | {
      t: 'insert'
      key: string
      eventType: string
      body: string
      receivedAt: number
      orderKey: string | null
      /** The strings held as digests, as JSON (see columns.ts); or null. */
      originals: string | null
      /** Stored already leased to this owner until `leaseUntil` (see `NewEvent.lease`); or null. */
      leaseOwner: string | null
      leaseUntil: number | null
    }
  /** Its value: the claimed rows, each a `ClaimRow` (sqlite-rows.ts). */
  | { t: 'claim'; owner: string; limit: number; now: number; leaseMs: number }
  | { t: 'renew'; key: string; owner: string; leaseUntil: number }
  | {
      t: 'settle'
      key: string
      owner: string
      status: string
      nextAttemptAt: number | null
      error: string | null
      at: number | null
    }
  | { t: 'requeue'; keys: string[] | null; now: number; status?: 'done' | 'dead' | null }
  /** `limit`: at most this many, oldest first; -1 for all. */
  | { t: 'prune'; status: 'done' | 'dead'; before: number; limit: number }

/**
 * Whether a write must survive a power cut (committed with the configured `synchronous`): it
 * stores what was acknowledged or asked for. Claims, renewals and outcomes need not (see
 * SqliteEngine's `#syncFor`).
 */
export function needsSync(op: WriteOp): boolean {
  return op.t === 'insert' || op.t === 'requeue' || op.t === 'prune'
}

export type ReadOp =
  | { t: 'get'; key: string }
  | { t: 'list'; status: EventStatus | null; after: string | null; limit: number }
  | { t: 'counts' }
  /** A page from `start` (a seq; see page-sql.ts). */
  | { t: 'page'; query: PageQuery; start: number }
  /** The first seq received at or after `time`. */
  | { t: 'seek'; time: number }
  | { t: 'oldestPending' }

export type OpResult = { ok: true; value: unknown } | { ok: false; error: string }

/** Where the database is and how it commits; what the engine is opened with. */
export interface EngineConfig {
  path: string
  table: string
  synchronous: string
  busyTimeoutMs: number
}

export type EngineMessage =
  | { kind: 'write'; id: number; ops: WriteOp[] }
  | { kind: 'read'; id: number; op: ReadOp }
  | { kind: 'close'; id: number }

/**
 * One transaction's outcome: each op's value in order, and the ops that failed by index with
 * their error (usually none); or `failed` when the commit itself failed. Plain values, not one
 * `OpResult` object per op: a reply to a batch then clones in a third of the CPU.
 */
export type WriteOutcome =
  | { values: unknown[]; errors?: Array<[index: number, error: string]> }
  | { failed: string }

export type EngineReply =
  | { ready: true }
  | { ready: false; error: string }
  | ({ id: number } & WriteOutcome)
  | { id: number; result: OpResult }
  | { id: number; closed: true }
