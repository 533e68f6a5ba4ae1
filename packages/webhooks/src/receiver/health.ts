import type { Redactor } from '@service-sdk/core/internal'
import { OptionIssues } from '../option-checks.ts'
import type { WebhookStore } from '../stores/store.ts'
import type { Worker, WorkerClock } from '../worker/worker.ts'
import { readiness } from './readiness.ts'

/** What `health()` checks besides the store and the worker. */
export interface HealthOptions {
  /**
   * Not healthy when the oldest pending event has waited longer than this (ms, since it was
   * received). Default: the backlog is not checked. A failing event waiting for its retry counts
   * (the defaults retry for about two hours), so pick a threshold above what your retries take,
   * or alert on it rather than take the process out of service.
   */
  maxBacklogAgeMs?: number
}

/**
 * A health report for a probe or an alert: `ok` when every check passes. Answer a probe with
 * 200 when `ok`, 503 otherwise.
 */
export interface Health {
  ok: boolean
  /** The store answers now (`SELECT 1` on PostgreSQL); `reason` redacted when not. */
  store: { ok: boolean; reason?: string }
  /**
   * The worker of this process: `running` and its claim loop went round within the last three
   * poll intervals plus 30 s (`ok`); `stopped` (not ok); `off` without processing here (ok).
   */
  worker: { ok: boolean; state: 'running' | 'stopped' | 'off'; lastLoopAgeMs: number | null }
  /** With `maxBacklogAgeMs`: the oldest pending event's age against it. */
  backlog?: { ok: boolean; oldestPendingAgeMs: number | null; maxAgeMs: number }
}

/** Slack a claim loop gets beyond three poll intervals before it counts as stuck. */
const LOOP_SLACK_MS = 30_000

export async function health(
  store: WebhookStore,
  worker: Worker | undefined,
  clock: WorkerClock,
  redact: Redactor,
  options: HealthOptions = {},
): Promise<Health> {
  const issues = new OptionIssues('health options')
  if (issues.object('options', options))
    issues.number('maxBacklogAgeMs', options.maxBacklogAgeMs, { min: 0, max: Number.MAX_SAFE_INTEGER })
  issues.throwIfAny()
  const [reachable, oldest] = await Promise.all([
    readiness(store, redact),
    options.maxBacklogAgeMs === undefined || !store.oldestPending
      ? undefined
      : store.oldestPending().catch(() => undefined),
  ])
  const now = clock.now()
  const report: Health = {
    ok: true,
    store: reachable.ready ? { ok: true } : { ok: false, reason: reachable.reason },
    worker: workerHealth(worker, now),
  }
  if (options.maxBacklogAgeMs !== undefined) {
    const age = oldest === undefined || oldest === null ? null : Math.max(0, now - oldest)
    // Unknown (the store did not answer) is not healthy.
    const ok = oldest === null || (age !== null && age <= options.maxBacklogAgeMs)
    report.backlog = { ok, oldestPendingAgeMs: age, maxAgeMs: options.maxBacklogAgeMs }
  }
  report.ok = report.store.ok && report.worker.ok && (report.backlog?.ok ?? true)
  return report
}

function workerHealth(worker: Worker | undefined, now: number): Health['worker'] {
  if (!worker) return { ok: true, state: 'off', lastLoopAgeMs: null }
  const { running, lastLoopAt, pollIntervalMs } = worker.liveness()
  const age = lastLoopAt === undefined ? null : Math.max(0, now - lastLoopAt)
  if (!running) return { ok: false, state: 'stopped', lastLoopAgeMs: age }
  return {
    ok: age !== null && age <= 3 * pollIntervalMs + LOOP_SLACK_MS,
    state: 'running',
    lastLoopAgeMs: age,
  }
}
