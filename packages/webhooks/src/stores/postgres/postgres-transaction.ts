import { WebhookError } from '../../errors.ts'
import { keyColumn } from '../columns.ts'
import type { StoreTransaction } from '../store.ts'
import { checkout, type PgQueryable } from './postgres-pool.ts'

/**
 * A transaction on a connection of its own that locks the event's row while `owner` holds its
 * lease: no other worker can claim it until the transaction ends (claims skip locked rows), and
 * the done mark commits together with the handler's own writes. A crash before COMMIT rolls
 * everything back; the lease then expires and the event runs again, its effects not yet made.
 */
export async function beginEvent(init: {
  pool: PgQueryable
  name: string
  key: string
  owner: string
  unavailable: (error: unknown) => WebhookError
}): Promise<StoreTransaction> {
  const { pool, name, unavailable } = init
  const key = keyColumn(init.key)
  const owner = keyColumn(init.owner)
  if (!pool.connect)
    throw new WebhookError('Transactions need a pool with connect() (a pg.Pool), or a connection string.', {
      code: 'transaction_unavailable',
    })
  // Checked out, the connection's errors are ours to handle (unhandled, they end the process).
  // One that comes before `checkout` resolves (see there) only marks the connection broken: its
  // BEGIN fails, and the connection is given back then.
  let end = (_error?: Error): void => {}
  const onError = (error?: unknown) => end(error as Error)
  const client = await checkout(pool, onError)
  let ended = false
  let lost: Error | undefined
  end = (error) => {
    if (ended) return
    ended = true
    lost = error
    client.off?.('error', onError)
    client.release?.(error ?? false)
  }
  const run = async <R>(text: string, values?: unknown[]) => {
    // Ended by its connection's failure (retryable, as every store failure), or committed or rolled back.
    if (ended)
      throw lost
        ? unavailable(lost)
        : new WebhookError('The transaction has ended.', { code: 'transaction_unavailable' })
    try {
      return await client.query<R>(text, values)
    } catch (error) {
      // A failed statement aborts the transaction; the connection is not trusted again.
      end(error as Error)
      throw unavailable(error)
    }
  }
  await run('BEGIN')
  const { rowCount } = await run(
    `SELECT 1 FROM ${name} WHERE key = $1 AND status = 'processing' AND lease_owner = $2 FOR UPDATE`,
    [key, owner],
  )
  if (!rowCount) {
    await run('ROLLBACK')
    end()
    throw new WebhookError('The lease on this event was lost; another worker runs it.', {
      code: 'store_unavailable',
      isRetryable: true,
    })
  }
  return {
    query: (text, values) => run(text, values),
    async commitDone(at) {
      const done = await run(
        `UPDATE ${name} SET status = 'done', finished_at = $1, lease_owner = NULL, lease_until = NULL
         WHERE key = $2 AND status = 'processing' AND lease_owner = $3`,
        [at, key, owner],
      )
      await run(done.rowCount ? 'COMMIT' : 'ROLLBACK')
      end()
      return (done.rowCount ?? 0) > 0
    },
    async rollback() {
      if (ended) return
      try {
        await client.query('ROLLBACK')
        end()
      } catch (error) {
        end(error as Error)
      }
    },
  }
}
