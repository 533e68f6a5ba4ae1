import type { Logger } from '@service-sdk/core'
import {
  createRedactor,
  type Instrumentation,
  type Redactor,
  redactingLogger,
} from '@service-sdk/core/internal'
import type { OptionIssues } from '../option-checks.ts'
import type { WebhookStore } from '../stores/store.ts'
import type { WebhookMetrics } from '../telemetry/metrics.ts'
import type { ProcessingOptions, Worker, WorkerClock } from '../worker/worker.ts'
import { type Health, type HealthOptions, health } from './health.ts'
import { createProcessor, type Processor } from './processor.ts'
import { type Readiness, readiness } from './readiness.ts'
import { type RetentionSettings, startRetention } from './retention.ts'

/** What a receiver and a `runWorker` are each run on; see `startHost`. */
export interface HostInit {
  store: WebhookStore
  /** The logger, its lines passed through `redact`. */
  logger: Logger
  redact: Redactor
  clock: WorkerClock | undefined
  /** `false`: no processing in this process (an ingest-only receiver): its worker never starts. */
  processing: ProcessingOptions | false
  /** Start processing on the next turn of the event loop, once the `on()` calls that follow are made. */
  autoStart: boolean
  strict: boolean
  /** Keep the process alive while processing (a worker process has nothing else to do). */
  keepAlive: boolean
  /** Whether requests are being received right now (the worker yields to them). */
  ingestBusy?: () => boolean
  instrumentation: Instrumentation | undefined
  metrics: WebhookMetrics | undefined
  /** Prune finished events on this schedule; none when undefined. */
  retention?: RetentionSettings | undefined
}

/** How handlers are registered, on a receiver and on a worker alike. */
export interface HostHandlers {
  on: Processor['on']
  onUnknown: Processor['on']
  onAny: Processor['onAny']
  onError: Processor['onError']
  onDeadLetter: Processor['onDeadLetter']
}

/** The life of what runs in the background (the worker, the retention, the metrics), and the probes. */
export interface HostLifecycle {
  /** Stop claiming; resolves when the handlers in flight have finished. */
  stop(): Promise<void>
  drain(): Promise<void>
  /** Stop, then close the store. */
  close(): Promise<void>
  readiness(): Promise<Readiness>
  health(options?: HealthOptions): Promise<Health>
}

export interface Host {
  readonly clock: WorkerClock
  readonly worker: Worker
  /** Hands an error to the `onError` handlers, its text redacted. */
  readonly reportError: Processor['reportError']
  readonly handlers: HostHandlers
  readonly lifecycle: HostLifecycle
}

/** The logger every line of a receiver or worker goes through: `secrets` never reach it. */
export function redactedLogging(
  secrets: readonly string[],
  logger: Partial<Logger> | undefined,
): { redact: Redactor; logger: Logger } {
  const redact = createRedactor(secrets)
  return { redact, logger: redactingLogger(logger, redact) }
}

/**
 * What a receiver and `runWorker` share: the processor (the handlers and the worker that runs
 * them), the worker's start on the next turn of the event loop, the retention schedule, the
 * metrics' observation of the store; and stop, drain, close, readiness and health over them all.
 */
export function startHost(init: HostInit): Host {
  const { store, logger, redact, metrics } = init
  const clock = init.clock ?? { now: Date.now, random: Math.random }
  const processor = createProcessor({
    store,
    processing: init.processing || {},
    clock,
    logger,
    redact,
    strict: init.strict,
    ...(init.ingestBusy ? { ingestBusy: init.ingestBusy } : {}),
    keepAlive: init.keepAlive,
    instrumentation: init.instrumentation,
    metrics,
  })
  const { worker, reportError } = processor
  const observing = metrics?.observe(store)
  const autoStart =
    init.processing !== false && init.autoStart ? setImmediate(() => worker.start()) : undefined
  const pruning =
    init.retention && startRetention({ store, settings: init.retention, clock, logger, redact, reportError })
  const stop = () => {
    clearImmediate(autoStart)
    return worker.stop()
  }
  const handlers: HostHandlers = {
    on: processor.on,
    onUnknown: processor.on,
    onAny: processor.onAny,
    onError: processor.onError,
    onDeadLetter: processor.onDeadLetter,
  }
  const lifecycle: HostLifecycle = {
    stop,
    drain: () => worker.drain(),
    async close() {
      observing?.()
      await Promise.all([stop(), pruning?.stop()])
      await store.close()
    },
    readiness: () => readiness(store, redact),
    health: (options) =>
      health(store, init.processing === false ? undefined : worker, clock, redact, options),
  }
  return { clock, worker, reportError, handlers, lifecycle }
}

/** The checks of the options a receiver and `runWorker` both take. */
export function checkHostOptions(
  issues: OptionIssues,
  options: { logger?: Partial<Logger>; metrics?: WebhookMetrics; strict?: boolean },
): void {
  if (options.logger !== undefined) issues.object('logger', options.logger)
  if (options.metrics !== undefined && typeof options.metrics?.delivery !== 'function')
    issues.add('metrics', 'must be a WebhookMetrics (otelMetrics() from @service-sdk/webhooks/otel)')
  issues.boolean('strict', options.strict)
}
