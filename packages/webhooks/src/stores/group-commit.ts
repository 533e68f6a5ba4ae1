import { WebhookError } from '../errors.ts'

export interface GroupCommitTransaction {
  begin(): void
  commit(): void
  rollback(): void
}

interface Pending {
  work: () => unknown
  resolve: (value: never) => void
  reject: (error: unknown) => void
}

/**
 * Group commit for a synchronous database (node:sqlite): every write requested during one turn
 * of the event loop runs in one transaction, committed (and fsynced) once, after which all their
 * promises settle. Under load, the requests that arrive while one commit is flushing form the
 * next group, so the number of fsyncs per second stays near the disk's limit while the number of
 * events per second grows with concurrency.
 */
export function createGroupCommit(tx: GroupCommitTransaction) {
  let queue: Pending[] = []
  let scheduled = false
  let closed = false
  let idle: (() => void) | undefined

  function flush(): void {
    scheduled = false
    const group = queue
    queue = []
    const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = []
    try {
      tx.begin()
      for (const p of group) {
        // One failing statement (a constraint, say) fails only its own promise.
        try {
          results.push({ ok: true, value: p.work() })
        } catch (error) {
          results.push({ ok: false, error })
        }
      }
      tx.commit()
    } catch (error) {
      try {
        tx.rollback()
      } catch {}
      const failure = new WebhookError(`The store could not commit: ${(error as Error).message}`, {
        code: 'store_unavailable',
        isRetryable: true,
        cause: error,
      })
      for (const p of group) p.reject(failure)
      done()
      return
    }
    for (const [i, p] of group.entries()) {
      const r = results[i]!
      if (r.ok) p.resolve(r.value as never)
      else p.reject(r.error)
    }
    done()
  }

  function done(): void {
    if (queue.length === 0) idle?.()
  }

  return {
    /** Run `work` inside the next group's transaction; resolves after that transaction committed. */
    run<T>(work: () => T): Promise<T> {
      if (closed) {
        return Promise.reject(
          new WebhookError('The store is closed.', { code: 'store_unavailable', isRetryable: true }),
        )
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: never) => void, reject })
        if (!scheduled) {
          scheduled = true
          // setImmediate, not a microtask: it runs after the event loop has read every request
          // that arrived in this turn, which is what makes the group large.
          setImmediate(flush)
        }
      })
    },
    /** Refuse new work and wait for the queued group to commit. */
    close(): Promise<void> {
      closed = true
      if (queue.length === 0) return Promise.resolve()
      return new Promise<void>((resolve) => {
        idle = resolve
      })
    },
  }
}
