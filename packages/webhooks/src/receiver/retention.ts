import type { Logger } from '@service-sdk/core'
import type { Redactor } from '@service-sdk/core/internal'
import { storeUnavailable, type WebhookError } from '../errors.ts'
import { MAX_TIMER_MS, type OptionIssues } from '../option-checks.ts'
import type { WebhookStore } from '../stores/store.ts'
import type { WorkerClock } from '../worker/worker.ts'

/** How long finished events stay in the inbox; see the receiver's `retention` option. */
export interface RetentionOptions {
  /**
   * Done events are deleted once they finished this long ago. Keep it longer than the sender
   * retries a delivery: a re-delivery of a pruned event is stored and processed again.
   * Default 7 days.
   */
  doneOlderThanMs?: number
  /** Dead letters too, once they died this long ago. Default: never (kept until re-queued or pruned). */
  deadOlderThanMs?: number
  /** How often to prune: once soon after the receiver is created, then every `everyMs`. Default 1 hour. */
  everyMs?: number
}

/** The `retention` option with its defaults filled in (what `DEFAULT_RETENTION` holds). */
export interface RetentionSettings {
  doneOlderThanMs: number
  deadOlderThanMs: number | undefined
  everyMs: number
}

const DAY = 86_400_000
export const DEFAULT_RETENTION: RetentionSettings = {
  doneOlderThanMs: 7 * DAY,
  deadOlderThanMs: undefined,
  everyMs: 3_600_000,
}

/**
 * Rows deleted per statement: a scheduled prune deletes in slices, one after another, so that a
 * delivery's insert never waits long behind it (SQLite has one writer).
 */
export const PRUNE_SLICE = 1_000

/** The `retention` option checked, with its defaults; undefined for `false` (no pruning). */
export function retentionSettings(
  option: RetentionOptions | false | undefined,
  issues: OptionIssues,
): RetentionSettings | undefined {
  if (option === false) return undefined
  if (!issues.object('retention', option ?? {})) return undefined
  const given = option ?? {}
  const age = { integer: false, min: 0, max: Number.MAX_SAFE_INTEGER }
  issues.number('retention.doneOlderThanMs', given.doneOlderThanMs, age)
  issues.number('retention.deadOlderThanMs', given.deadOlderThanMs, age)
  issues.number('retention.everyMs', given.everyMs, { min: 1, max: MAX_TIMER_MS })
  return {
    doneOlderThanMs: given.doneOlderThanMs ?? DEFAULT_RETENTION.doneOlderThanMs,
    deadOlderThanMs: given.deadOlderThanMs ?? DEFAULT_RETENTION.deadOlderThanMs,
    everyMs: given.everyMs ?? DEFAULT_RETENTION.everyMs,
  }
}

interface RetentionInit {
  store: WebhookStore
  settings: RetentionSettings
  clock: WorkerClock
  logger: Logger
  redact: Redactor
  reportError: (error: WebhookError) => void
}

/**
 * Prunes on a schedule: once on the next turn of the event loop, then every `everyMs`, until
 * `stop()`. Its timers never keep the process alive. A failed prune is logged and reported to
 * `onError` (`store_unavailable`), and tried again at the next turn of the schedule.
 */
export function startRetention(init: RetentionInit): { stop(): Promise<void> } {
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  const run = () => {
    running = pruneAll(init, () => stopped)
  }
  const first = setImmediate(run)
  const every = setInterval(() => {
    // A slow prune (a large backlog on a busy database) is not started twice.
    running = running.then(() => (stopped ? undefined : pruneAll(init, () => stopped)))
  }, init.settings.everyMs)
  every.unref?.()
  first.unref?.()
  return {
    async stop() {
      stopped = true
      clearImmediate(first)
      clearInterval(every)
      await running
    },
  }
}

async function pruneAll(init: RetentionInit, stopped: () => boolean): Promise<void> {
  const { settings, clock, logger } = init
  const now = clock.now()
  const kinds: Array<['done' | 'dead', number]> = [['done', settings.doneOlderThanMs]]
  if (settings.deadOlderThanMs !== undefined) kinds.push(['dead', settings.deadOlderThanMs])
  try {
    for (const [status, olderThanMs] of kinds) {
      const before = Math.floor(now - olderThanMs)
      let deleted = 0
      for (let n = PRUNE_SLICE; n >= PRUNE_SLICE && !stopped(); ) {
        n = await init.store.prune({ before, status, limit: PRUNE_SLICE })
        deleted += n
      }
      if (deleted > 0)
        logger.info(`webhooks: pruned ${deleted} ${status} event(s) (retention)`, { status, deleted })
    }
  } catch (error) {
    const failure = storeUnavailable(
      'A scheduled prune failed (retention); it runs again later',
      error,
      init.redact,
    )
    logger.warn(`webhooks: ${failure.message}`)
    init.reportError(failure)
  }
}
