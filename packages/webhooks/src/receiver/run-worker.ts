import type { Logger } from '@service-sdk/core'
import type { Instrumentation } from '@service-sdk/core/internal'
import type { WebhookError } from '../errors.ts'
import { OptionIssues } from '../option-checks.ts'
import type { WebhookStore } from '../stores/store.ts'
import type { WebhookMetrics } from '../telemetry/metrics.ts'
import type { ProcessingOptions, WorkerClock } from '../worker/worker.ts'
import type { Health, HealthOptions } from './health.ts'
import { checkHostOptions, type HostHandlers, redactedLogging, startHost } from './host.ts'
import type { DeadLetterHandler, WebhookHandler, WebhookHandlers } from './processor.ts'
import type { Readiness } from './readiness.ts'
import type { WebhookReceiver } from './receiver.ts'

export interface RunWorkerOptions {
  /** The shared inbox the receivers store into: `postgresStore(...)` for processes of their own. */
  store: WebhookStore
  /**
   * Handlers by known event type; `'*'` runs for every event. More can be added with `on()`, and
   * handlers for event types this SDK does not know with `onUnknown()`.
   */
  handlers?: WebhookHandlers
  onError?: (error: WebhookError) => void | Promise<void>
  /** console, pino or anything with debug/info/warn/error; secrets are redacted. Default: silent. */
  logger?: Partial<Logger>
  processing?: ProcessingOptions
  /** As the receiver's `strict`: dead-letter events that differ from the known schema. Default false. */
  strict?: boolean
  /** Strings never to show in logs and errors (the receivers' tokens, if handlers might echo them). */
  secrets?: readonly string[]
  /** Tracing: a span per processing attempt (`otelInstrumentation()` from `@service-sdk/core/otel`). */
  instrumentation?: Instrumentation
  /** Metrics: outcomes, handler durations, the backlog (`otelMetrics()` from `@service-sdk/webhooks/otel`). */
  metrics?: WebhookMetrics
  /** Each event moved to the dead letters, once (see the receiver's `onDeadLetter`). */
  onDeadLetter?: DeadLetterHandler
  /** For tests: the time and randomness the worker uses. */
  clock?: WorkerClock
}

/** Handlers are added as on a receiver: `on()` types the event by its eventType. */
export interface WebhookWorker
  extends Pick<WebhookReceiver, 'on' | 'onUnknown' | 'onAny' | 'onError' | 'onDeadLetter'> {
  /** Stop claiming events; resolves when the handlers in flight have finished. */
  stop(): Promise<void>
  /** Process every event that is due now, and wait for it. */
  drain(): Promise<void>
  /** Stop, then close the store. */
  close(): Promise<void>
  /** Whether the store can be reached now. */
  readiness(): Promise<Readiness>
  /** The store reachable, the worker alive, the backlog's age under a threshold (see the receiver's). */
  health(options?: HealthOptions): Promise<Health>
}

/**
 * Process stored events in a process of its own, apart from the receivers: N receivers with
 * `processing: false` and M workers on one PostgreSQL store scale separately. Starts on the next
 * turn of the event loop (after `on()` calls that follow), and keeps the process alive until
 * `stop()` or `close()`.
 */
export function runWorker(options: RunWorkerOptions): WebhookWorker {
  checkOptions(options)
  const host = startHost({
    store: options.store,
    ...redactedLogging(options.secrets ?? [], options.logger),
    clock: options.clock,
    processing: options.processing ?? {},
    autoStart: true,
    strict: options.strict === true,
    keepAlive: true,
    instrumentation: options.instrumentation,
    metrics: options.metrics,
  })
  register(host.handlers, options)
  return { ...host.handlers, ...host.lifecycle }
}

/** The handlers given in the options, registered as `on()`, `onAny()`, `onError()` and `onDeadLetter()` do. */
function register(handlers: HostHandlers, options: RunWorkerOptions): void {
  for (const [type, handler] of Object.entries(options.handlers ?? {})) {
    if (!handler) continue
    if (type === '*') handlers.onAny(handler as WebhookHandler)
    else handlers.on(type, handler)
  }
  if (options.onError) handlers.onError(options.onError)
  if (options.onDeadLetter) handlers.onDeadLetter(options.onDeadLetter)
}

/** What the host does not check itself (the processing options), before anything starts. */
function checkOptions(options: RunWorkerOptions): void {
  const issues = new OptionIssues('runWorker options')
  if (!issues.object('options', options)) issues.add('store', 'required: the store the receivers store into')
  else {
    if (typeof options.store?.claim !== 'function')
      issues.add('store', 'required: the store the receivers store into (postgresStore(...))')
    if (issues.object('handlers', options.handlers))
      for (const [type, handler] of Object.entries(options.handlers ?? {}))
        if (handler !== undefined) issues.function(`handlers.${type}`, handler)
    issues.function('onError', options.onError)
    issues.function('onDeadLetter', options.onDeadLetter)
    checkHostOptions(issues, options)
    issues.strings('secrets', options.secrets)
  }
  issues.throwIfAny()
}
