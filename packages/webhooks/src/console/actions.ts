import { OptionIssues } from '../option-checks.ts'
import { MAX_PAGE_LIMIT } from '../stores/store-checks.ts'
import type { ConsoleSettings } from './options.ts'

/**
 * What the console changes, each a POST with a JSON body:
 * - `requeue` `{ keys }`: these events, if dead, run again (attempts from 1); `{ allDead: true }`:
 *   every dead letter.
 * - `replay` `{ keys }`: these events, if done, run again: the same stored event (same key, same
 *   body), not a copy, so the inbox still holds one event per key and a late re-delivery is
 *   still a duplicate. Handlers see `context.key` they have seen: one that skips keys it has
 *   processed skips the replay too.
 * - `prune` `{ olderThanMs, status? }`: delete done (or dead) events finished that long ago.
 * Events in any other status are left as they are; the answer says how many were changed.
 */
export type Action = 'requeue' | 'replay' | 'prune'

export function actionOf(path: string): Action | undefined {
  if (path === '/api/requeue') return 'requeue'
  if (path === '/api/replay') return 'replay'
  if (path === '/api/prune') return 'prune'
  return undefined
}

export async function runAction(
  s: ConsoleSettings,
  action: Action,
  body: unknown,
): Promise<Record<string, number>> {
  const issues = new OptionIssues(`inbox ${action}`)
  if (!issues.object('body', body)) issues.add('body', 'must be a JSON object')
  issues.throwIfAny()
  const input = body as Record<string, unknown>
  if (action === 'prune') {
    if (input.olderThanMs === undefined) issues.add('olderThanMs', 'is required (milliseconds)')
    issues.number('olderThanMs', input.olderThanMs, { min: 0, max: Number.MAX_SAFE_INTEGER })
    issues.oneOf('status', input.status, ['done', 'dead'])
    issues.throwIfAny()
    const status = (input.status as 'done' | 'dead' | undefined) ?? 'done'
    const before = Math.floor(Date.now() - (input.olderThanMs as number))
    return { pruned: await s.store.prune({ before, status }) }
  }
  if (action === 'requeue' && input.allDead === true) return { requeued: await requeue(s, undefined, 'dead') }
  issues.strings('keys', input.keys)
  if (!Array.isArray(input.keys) || input.keys.length === 0)
    issues.add('keys', action === 'requeue' ? 'required: the keys, or allDead: true' : 'required: the keys')
  else if (input.keys.length > MAX_PAGE_LIMIT) issues.add('keys', `at most ${MAX_PAGE_LIMIT} at once`)
  issues.throwIfAny()
  const keys = input.keys as string[]
  if (action === 'replay') return { replayed: await requeue(s, keys, 'done') }
  return { requeued: await requeue(s, keys, 'dead') }
}

/** Through the receiver when there is one: its worker is woken at once. */
function requeue(s: ConsoleSettings, keys: string[] | undefined, status: 'done' | 'dead'): Promise<number> {
  if (s.receiver) return s.receiver.events.requeue(keys, keys ? { status } : undefined)
  return s.store.requeue(keys ? { keys, now: Date.now(), status } : { now: Date.now() })
}
