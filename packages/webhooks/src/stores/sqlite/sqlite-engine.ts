import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { SqlitePages } from './sqlite-page.ts'
import {
  type EngineConfig,
  type EngineMessage,
  type EngineReply,
  needsSync,
  type OpResult,
  type ReadOp,
  type WriteOp,
  type WriteOutcome,
} from './sqlite-protocol.ts'
import { claimRow } from './sqlite-rows.ts'
import { ensureSchema } from './sqlite-schema.ts'
import { prepareStatements, type Statements } from './sqlite-statements.ts'

/** At most this many leased events remembered (see `#leasedSeq`): a few MB at most. */
const LEASED_SEQS = 65_536

/**
 * The SQL side of the SQLite store: one connection, its prepared statements, and one transaction
 * per batch of writes. It runs on the store's worker thread (sqlite-thread.ts) or, with
 * `thread: 'main'`, on the caller's.
 */
export class SqliteEngine {
  readonly #db: DatabaseSync
  readonly #sql: Statements
  /** The configured `synchronous`, for commits that store what was acknowledged or asked for. */
  readonly #durable: string
  /** The connection's `synchronous` now. */
  #synchronous: string
  /**
   * BEGIN and COMMIT, prepared once: run as text, each would be parsed again at every commit.
   * (Not `PRAGMA synchronous`: SQLite applies a pragma when preparing it, not when running it.)
   */
  readonly #begin: StatementSync
  readonly #commit: StatementSync
  readonly #pages: SqlitePages
  /**
   * The row (`seq`) of each event this engine stored leased, by key, until its outcome: the
   * outcome then finds the row by its primary key, binding no key and reading no key index
   * (about 5% less CPU per event). The owner still decides, as by key: a row's seq never changes,
   * and an owner string is never reused. Cleared when a commit fails (its rows are gone) and when
   * it grows past LEASED_SEQS (outcomes that never came, leases lost): those settle by key.
   */
  readonly #leasedSeq = new Map<string, number | bigint>()

  constructor(config: EngineConfig) {
    // Looked up, not imported: the package must load on a Node without node:sqlite (the store
    // then refuses at creation, see sqlite.ts).
    const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite')
    this.#db = new sqlite.DatabaseSync(config.path, { timeout: config.busyTimeoutMs })
    this.#db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${config.synchronous};`)
    this.#durable = config.synchronous
    this.#synchronous = config.synchronous
    ensureSchema(this.#db, config.table)
    this.#sql = prepareStatements(this.#db, config.table)
    this.#begin = this.#db.prepare('BEGIN IMMEDIATE')
    this.#commit = this.#db.prepare('COMMIT')
    this.#pages = new SqlitePages(this.#db, config.table)
  }

  /** Every op in one transaction, committed once; `failed` when the commit itself failed. */
  write(ops: readonly WriteOp[]): WriteOutcome {
    const db = this.#db
    const values: unknown[] = []
    const errors: Array<[number, string]> = []
    try {
      this.#syncFor(ops)
      this.#begin.run()
      for (const [i, op] of ops.entries()) {
        // One failing statement (a constraint, say) fails only its own op.
        try {
          values.push(this.#apply(op))
        } catch (error) {
          values.push(undefined)
          errors.push([i, messageOf(error)])
        }
      }
      this.#commit.run()
      return errors.length === 0 ? { values } : { values, errors }
    } catch (error) {
      this.#leasedSeq.clear()
      try {
        if (db.isTransaction) db.exec('ROLLBACK')
      } catch {}
      return { failed: messageOf(error) }
    }
  }

  /**
   * A commit of only claims, renewals and outcomes is not fsynced (`synchronous = NORMAL`, which
   * in WAL mode survives a process crash): lost on a power cut, such a commit leaves the event
   * to run again (at least once, as after a crash mid-handler), and the next durable commit's
   * fsync covers it anyway. An fsync costs about 250 µs of CPU on the development machine, the
   * largest cost of processing an event. Inserts, requeues and prunes keep the configured level.
   */
  #syncFor(ops: readonly WriteOp[]): void {
    const wanted = ops.some(needsSync) ? this.#durable : 'NORMAL'
    if (wanted === this.#synchronous) return
    this.#db.exec(`PRAGMA synchronous = ${wanted}`)
    this.#synchronous = wanted
  }

  /** The connection's `synchronous` level now (1 NORMAL, 2 FULL, 3 EXTRA), for tests. */
  synchronousLevel(): number {
    return (this.#db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous
  }

  read(op: ReadOp): OpResult {
    const sql = this.#sql
    try {
      switch (op.t) {
        case 'get':
          return { ok: true, value: sql.get.get(op.key) }
        case 'list':
          return {
            ok: true,
            value: op.status
              ? // Not a status (a caller without types): none has it.
                (sql.listStatus[op.status]?.all(op.after, op.limit) ?? [])
              : sql.listAll.all(op.after, op.limit),
          }
        case 'page':
          return { ok: true, value: this.#pages.page(op.query, op.start) }
        case 'seek':
          return { ok: true, value: this.#pages.seek(op.time) }
        case 'oldestPending':
          return { ok: true, value: this.#pages.oldestPending() }
        case 'counts': {
          const n = sql.counts.get() as Record<'total' | 'pending' | 'processing' | 'dead', number>
          const done = n.total - n.pending - n.processing - n.dead
          return {
            ok: true,
            value: [
              { status: 'pending', n: n.pending },
              { status: 'processing', n: n.processing },
              { status: 'done', n: done },
              { status: 'dead', n: n.dead },
            ],
          }
        }
      }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
  }

  close(): void {
    this.#db.close()
  }

  #apply(op: WriteOp): unknown {
    const sql = this.#sql
    switch (op.t) {
      case 'insert': {
        // Order keys are never leased at insert: their turn is the claim's to decide.
        if (op.leaseOwner === null || op.orderKey !== null) {
          const { changes } = sql.insert.run(
            op.key,
            op.eventType,
            op.body,
            op.receivedAt,
            op.receivedAt,
            op.orderKey,
            op.originals,
          )
          return changes === 0 ? 'duplicate' : 'inserted'
        }
        const { changes, lastInsertRowid } = sql.insertLeased.run(
          op.key,
          op.eventType,
          op.body,
          op.receivedAt,
          op.receivedAt,
          op.originals,
          op.leaseOwner,
          op.leaseUntil,
        )
        if (changes === 0) return 'duplicate'
        if (this.#leasedSeq.size >= LEASED_SEQS) this.#leasedSeq.clear()
        this.#leasedSeq.set(op.key, lastInsertRowid)
        return 'inserted'
      }
      case 'claim': {
        const until = op.now + op.leaseMs
        const rows = sql.claimExpired.all(op.owner, until, op.now, op.limit)
        if (rows.length < op.limit)
          rows.push(...sql.claimDue.all(op.owner, until, op.now, op.limit - rows.length))
        return rows.map(claimRow)
      }
      case 'renew':
        return sql.renew.run(op.leaseUntil, op.key, op.owner).changes > 0
      case 'settle': {
        const seq = this.#leasedSeq.get(op.key)
        if (seq !== undefined) this.#leasedSeq.delete(op.key)
        if (op.status !== 'done')
          return sql.settle.run(op.status, op.nextAttemptAt, op.error, op.at, op.key, op.owner).changes > 0
        if (seq === undefined) return sql.settleDone.run(op.at, op.key, op.owner).changes > 0
        return sql.settleDoneSeq.run(op.at, seq, op.owner).changes > 0
      }
      case 'requeue': {
        if (!op.keys) return Number(sql.requeueDead.run(op.now).changes)
        let n = 0
        for (const key of op.keys)
          n += Number(
            (op.status ? sql.requeueKeyIn.run(op.now, key, op.status) : sql.requeueKey.run(op.now, key))
              .changes,
          )
        return n
      }
      case 'prune':
        return Number(sql.prune[op.status]?.run(op.before, op.limit).changes ?? 0)
    }
  }
}

/** One request to the engine, one reply. */
export function respond(engine: SqliteEngine, message: EngineMessage): EngineReply {
  if (message.kind === 'write') return { id: message.id, ...engine.write(message.ops) }
  if (message.kind === 'read') return { id: message.id, result: engine.read(message.op) }
  engine.close()
  return { id: message.id, closed: true }
}

function messageOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error)
}
