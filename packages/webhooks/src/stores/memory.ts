import { WebhookError } from '../errors.ts'
import * as inbox from './memory-inbox.ts'
import type { WebhookStore } from './store.ts'
import { checkList, checkPage, checkPrune, checkRequeue } from './store-checks.ts'

/**
 * An inbox in memory, for unit tests only: everything is lost when the process exits, so an
 * event acknowledged to the sender would be lost too. Its name says so, and it lives on the
 * `/testing` subpath, so that nobody ships it by accident. Each call checks its arguments as the
 * SQL stores do, then that the store is open, then does its part of memory-inbox.ts.
 */
export function memoryStoreForTests(): WebhookStore & { readonly size: number } {
  const state: inbox.Inbox = { events: new Map(), seq: 0 }
  let closed = false
  const open = async () => {
    if (closed)
      throw new WebhookError('memoryStoreForTests: the store is closed.', {
        code: 'store_unavailable',
        isRetryable: true,
      })
    return state
  }
  return {
    get size() {
      return state.events.size
    },
    insert: async (event) => inbox.insert(await open(), event),
    claim: async (options) => inbox.claim(await open(), options),
    renew: async (key, owner, leaseUntil) => inbox.renew(await open(), key, owner, leaseUntil),
    settle: async (key, owner, outcome) => inbox.settle(await open(), key, owner, outcome),
    async get(key) {
      const e = (await open()).events.get(key)
      return e ? inbox.view(e) : undefined
    },
    async list(options = {}) {
      checkList(options, 'list options')
      return inbox.list(await open(), options)
    },
    counts: async () => inbox.counts(await open()),
    async requeue(options) {
      checkRequeue(options, 'requeue options')
      return inbox.requeue(await open(), options)
    },
    async prune(options) {
      checkPrune(options, 'prune options')
      return inbox.prune(await open(), options)
    },
    async page(query = {}) {
      checkPage(query, 'page query')
      return await inbox.page(await open(), query)
    },
    oldestPending: async () => inbox.oldestPending(await open()),
    async close() {
      closed = true
    },
  }
}
