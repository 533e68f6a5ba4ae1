import { WebhookError } from '../errors.ts'
import type { ClaimedEvent, StoreTransaction } from '../stores/store.ts'
import type { RunTools, WorkerState } from './state.ts'

/**
 * The transaction a handler may take (`context.transaction()`): opened on first use, committed
 * with the done mark after every handler succeeded, rolled back otherwise.
 */
export class EventTransaction {
  readonly #w: WorkerState
  readonly #event: ClaimedEvent
  readonly #owner: string
  #opening: Promise<StoreTransaction> | undefined

  constructor(w: WorkerState, event: ClaimedEvent, owner: string) {
    this.#w = w
    this.#event = event
    this.#owner = owner
  }

  readonly tools: RunTools = {
    transaction: () => this.#open(),
  }

  opened(): boolean {
    return this.#opening !== undefined
  }

  /** True when the transaction committed the done mark; throws when it could not. */
  async commitDone(): Promise<boolean> {
    if (!this.#opening) return false
    const held = await (await this.#opening).commitDone(this.#w.clock.now())
    if (!held) {
      this.#w.logger.warn('webhooks: lost the lease before committing; the transaction was rolled back', {
        key: this.#event.key,
      })
    }
    return true
  }

  async rollback(): Promise<void> {
    await this.#opening?.then((t) => t.rollback()).catch(() => {})
  }

  #open(): Promise<Pick<StoreTransaction, 'query'>> {
    const { store } = this.#w
    if (!store.begin) {
      return Promise.reject(
        new WebhookError('This store has no transactions: use postgresStore for transactional handlers.', {
          code: 'transaction_unavailable',
        }),
      )
    }
    this.#opening ??= store.begin(this.#event.key, this.#owner)
    return this.#opening.then((t) => ({ query: t.query }))
  }
}
