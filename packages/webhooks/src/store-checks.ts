import { OptionIssues } from './option-checks.ts'
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
    const { keys, now } = options as Record<string, unknown>
    issues.strings('keys', keys)
    if (now === undefined) issues.add('now', 'is required (epoch milliseconds)')
    issues.number('now', now, { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER })
  } else issues.add('options', 'required: { keys?, now }')
  issues.throwIfAny()
}
