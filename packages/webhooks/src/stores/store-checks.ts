import { OptionIssues } from '../option-checks.ts'
import { EVENT_STATUSES } from './store.ts'

/** Events one `list()` returns at most; page with `after` for more. */
export const MAX_LIST_LIMIT = 10_000

/**
 * The checks every store and `receiver.events` run on what they are asked, before any I/O: a
 * NaN time or a negative count is a `ServiceValidationError` saying so, never a database error
 * that reads as an outage (`store_unavailable`) nor a silent 0.
 */
export function checkList(options: unknown, what: string): void {
  const issues = new OptionIssues(what)
  if (issues.object('options', options)) {
    const { status, limit, after } = options as Record<string, unknown>
    issues.oneOf('status', status, EVENT_STATUSES)
    issues.number('limit', limit, { integer: true, min: 1, max: MAX_LIST_LIMIT })
    if (after !== undefined && typeof after !== 'string') issues.add('after', 'must be a key (a string)')
  }
  issues.throwIfAny()
}

/** Events one `page()` returns when not told. */
export const DEFAULT_PAGE = 50

/** Events one `page()` returns at most. */
export const MAX_PAGE_LIMIT = 1_000

/**
 * Events a filtered page (by `eventType` or `orderKey`, which no index serves) reads at most
 * before it answers with what it found and where to continue: every page stays fast, however
 * rare the events sought. See `bench/webhooks/console-pages.ts` for what a page costs.
 */
export const PAGE_SCAN_BUDGET = 20_000

/** A cursor as the stores make it: the position (seq) of the last event looked at. */
export const CURSOR = /^(0|[1-9][0-9]{0,15})$/

/** A store's `page(query)`. */
export function checkPage(query: unknown, what: string): void {
  const issues = new OptionIssues(what)
  if (issues.object('query', query)) {
    const { status, eventType, orderKey, order, from, cursor, limit } = query as Record<string, unknown>
    issues.oneOf('status', status, EVENT_STATUSES)
    if (eventType !== undefined && typeof eventType !== 'string') issues.add('eventType', 'must be a string')
    if (orderKey !== undefined && typeof orderKey !== 'string') issues.add('orderKey', 'must be a string')
    issues.oneOf('order', order, ['newest', 'oldest'])
    issues.number('from', from, { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER })
    if (cursor !== undefined && (typeof cursor !== 'string' || !CURSOR.test(cursor)))
      issues.add('cursor', 'must be the `next` of a previous page')
    issues.number('limit', limit, { integer: true, min: 1, max: MAX_PAGE_LIMIT })
  }
  issues.throwIfAny()
}

/** A store's `prune({ before, status })`. */
export function checkPrune(options: unknown, what: string): void {
  const issues = new OptionIssues(what)
  if (issues.object('options', options)) {
    const { before, status, limit } = options as Record<string, unknown>
    if (before === undefined) issues.add('before', 'is required (epoch milliseconds)')
    issues.number('before', before, {
      integer: true,
      min: Number.MIN_SAFE_INTEGER,
      max: Number.MAX_SAFE_INTEGER,
    })
    issues.oneOf('status', status, ['done', 'dead'])
    issues.number('limit', limit, { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER })
  } else issues.add('options', 'required: { before, status? }')
  issues.throwIfAny()
}

/** A store's `requeue({ keys?, now })`. */
export function checkRequeue(options: unknown, what: string): void {
  const issues = new OptionIssues(what)
  if (issues.object('options', options)) {
    const { keys, now, status } = options as Record<string, unknown>
    issues.strings('keys', keys)
    issues.oneOf('status', status, ['done', 'dead'])
    if (status !== undefined && keys === undefined) issues.add('status', 'applies to `keys` only')
    if (now === undefined) issues.add('now', 'is required (epoch milliseconds)')
    issues.number('now', now, { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER })
  } else issues.add('options', 'required: { keys?, now }')
  issues.throwIfAny()
}
