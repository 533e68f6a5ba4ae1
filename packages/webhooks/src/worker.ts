import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { Logger } from '@service-sdk/core'
import { DEFAULT_RETRY, type RetryOptions, retryDelay } from './backoff.ts'
import { describeError, WebhookError } from './errors.ts'
import type { ClaimedEvent, StoreTransaction, WebhookStore } from './store.ts'

export interface ProcessingOptions {
  /** Events run at the same time in this process. Default 8. */
  concurrency?: number
  /**
   * How long a claim holds before another worker may take the event (its worker presumably
   * crashed). Renewed while a handler runs, so a slow handler keeps its event. Default 30 s.
   */
  leaseMs?: number
  /** How often the store is polled for retries that fell due and expired leases. Default 1 s. */
  pollIntervalMs?: number
  retry?: RetryOptions
}

const YIELD_MS = 100

export interface WorkerClock {
  now(): number
  random(): number
}

/** What the worker gives a run: the event's transaction, opened on first use (PostgreSQL). */
export interface RunTools {
  transaction(): Promise<Pick<StoreTransaction, 'query'>>
}

/** What the worker runs for one event; a `WebhookError` with code `invalid_payload` is not retried. */
export type RunEvent = (event: ClaimedEvent, tools: RunTools) => Promise<void>

/** What the worker reports for every failed attempt (and every store failure). */
export type FailureReport = (
  event: ClaimedEvent | undefined,
  error: unknown,
  retryAt: number | undefined,
) => void

export interface Worker {
  /** Look for work now (called after each stored event). */
  wake(): void
  start(): void
  /** Stop claiming; resolves when the events in flight have settled. */
  stop(): Promise<void>
  /** Process until nothing is due and nothing runs; events waiting for a retry are left waiting. */
  drain(): Promise<void>
}

export function createWorker(init: {
  store: WebhookStore
  run: RunEvent
  options: ProcessingOptions
  clock: WorkerClock
  logger: Logger
  /** Turns an error into the one line stored as `lastError` (secrets removed). */
  errorLine: (error: unknown) => string
  onFailure: FailureReport
  /** Whether requests are being received right now (see yieldToIngest). */
  ingestBusy?: () => boolean
  /** Keep the process alive while started (a worker process has nothing else to); default false. */
  keepAlive?: boolean
}): Worker {
  const { store, run, clock, logger, errorLine, onFailure } = init
  const concurrency = positive(init.options.concurrency ?? 8, 'concurrency')
  const leaseMs = positive(init.options.leaseMs ?? 30_000, 'leaseMs')
  const pollIntervalMs = positive(init.options.pollIntervalMs ?? 1_000, 'pollIntervalMs')
  const retry = { ...DEFAULT_RETRY, ...init.options.retry }
  positive(retry.maxAttempts, 'retry.maxAttempts')

  // Each claim gets its own owner string, so a run whose lease was lost and re-claimed can
  // neither renew nor settle the event under its new owner.
  const instance = randomBytes(6).toString('hex')
  let claims = 0
  const batchSize = concurrency * 4
  const buffered: Array<{ event: ClaimedEvent; owner: string }> = []
  const inFlight = new Set<Promise<void>>()
  let running = false
  let draining = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let pumping = false
  let current: Promise<number> = Promise.resolve(0)
  let again = false
  let subscription: Promise<(() => Promise<void>) | undefined> | undefined

  /**
   * Acknowledgements first: while requests are being received and the event loop is saturated,
   * claim at most one batch per YIELD_MS, so a burst is stored and acknowledged at full speed and
   * processed right after it (the backlog is durable). Without incoming requests, processing runs
   * at full speed however busy the loop is.
   */
  let lastClaimAt = 0
  let loopWindow = performance.eventLoopUtilization()
  let loopWindowAt = performance.now()
  let saturated = false
  function yieldToIngest(): boolean {
    if (!init.ingestBusy?.()) return false
    const now = performance.now()
    if (now - loopWindowAt >= YIELD_MS) {
      saturated = performance.eventLoopUtilization(loopWindow).utilization > 0.9
      loopWindow = performance.eventLoopUtilization()
      loopWindowAt = now
    }
    return saturated && now - lastClaimAt < YIELD_MS
  }

  let yieldTimer: ReturnType<typeof setTimeout> | undefined
  function retryAfterYield(): void {
    if (yieldTimer) return
    yieldTimer = setTimeout(() => {
      yieldTimer = undefined
      if (active()) void pump()
    }, YIELD_MS)
    yieldTimer.unref?.()
  }

  function active(): boolean {
    return running || draining > 0
  }

  /**
   * Claim in batches (four times the concurrency) into a local buffer, and start buffered events
   * as slots free up: one claim per batch instead of one per event, which under load is what lets
   * processing keep up with ingest. Buffered events hold their lease; one whose lease ran out
   * while it waited is left for the next claim (see execute).
   */
  function pump(): Promise<number> {
    if (pumping) {
      again = true
      return current
    }
    // A flag, not the promise: with no capacity the body below finishes synchronously, before
    // the promise could be stored, and a cleared-then-stored promise would block pumping forever.
    pumping = true
    current = (async () => {
      let claimed = 0
      try {
        do {
          again = false
          startBuffered()
          while (active() && inFlight.size < concurrency && buffered.length === 0) {
            if (draining === 0 && yieldToIngest()) {
              retryAfterYield()
              break
            }
            lastClaimAt = performance.now()
            const owner = `${instance}:${++claims}`
            const events = await store.claim({ owner, limit: batchSize, now: clock.now(), leaseMs })
            claimed += events.length
            for (const event of events) buffered.push({ event, owner })
            startBuffered()
            if (events.length < batchSize) break
          }
        } while (again && active())
      } catch (error) {
        logger.error('webhooks: claiming events failed', { error: describeError(error) })
        onFailure(undefined, error, undefined)
      } finally {
        pumping = false
      }
      return claimed
    })()
    return current
  }

  /** Claimed events run even while stopping: they are leased to this worker. */
  function startBuffered(): void {
    while (inFlight.size < concurrency && buffered.length > 0) {
      const { event, owner } = buffered.shift()!
      track(execute(event, owner))
    }
  }

  function track(task: Promise<void>): void {
    inFlight.add(task)
    task.finally(() => {
      inFlight.delete(task)
      if (active()) void pump()
      else startBuffered()
    })
  }

  async function execute(event: ClaimedEvent, owner: string): Promise<void> {
    // A lease that expired this many times means the worker died (or hung) on this event every
    // time; running it again would crash again.
    if (event.attempts > retry.maxAttempts) {
      const error = `Not run: its lease expired on ${event.attempts - 1} attempts (the worker crashed or hung while running it).`
      await settle(event, owner, { status: 'dead', at: clock.now(), error })
      onFailure(event, new WebhookError(error, { code: 'handler_failed' }), undefined)
      return
    }
    if (clock.now() >= event.leaseUntil) {
      // The claim came back too late (a stalled event loop): another worker may hold it now.
      logger.warn('webhooks: a lease expired before its handler started; not running it here', {
        key: event.key,
      })
      return
    }
    const tx = lazyTransaction(event, owner)
    const renewal = setInterval(
      () => {
        // An open transaction holds the row locked: nobody can claim it, no renewal needed.
        if (tx.opened()) return
        store.renew(event.key, owner, clock.now() + leaseMs).then(
          (held) => {
            if (!held)
              logger.warn('webhooks: lost the lease on an event while its handler ran', { key: event.key })
          },
          (error) =>
            logger.warn('webhooks: renewing a lease failed', { key: event.key, error: describeError(error) }),
        )
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    )
    let failure: unknown
    let failed = false
    try {
      await run(event, tx.tools)
      if (await tx.commitDone()) return
    } catch (error) {
      failed = true
      failure = error
      await tx.rollback()
    } finally {
      clearInterval(renewal)
    }
    if (!failed) {
      await settle(event, owner, { status: 'done', at: clock.now() })
      return
    }
    const permanent = WebhookError.isInstance(failure) && failure.code === 'invalid_payload'
    const retryAt =
      permanent || event.attempts >= retry.maxAttempts
        ? undefined
        : clock.now() + retryDelay(event.attempts, retry, clock.random)
    const error = errorLine(failure)
    await settle(
      event,
      owner,
      retryAt === undefined
        ? { status: 'dead', at: clock.now(), error }
        : { status: 'pending', nextAttemptAt: retryAt, error },
    )
    onFailure(event, failure, retryAt)
  }

  /** The transaction a handler may take; committed with the done mark after every handler succeeded. */
  function lazyTransaction(event: ClaimedEvent, owner: string) {
    let opening: Promise<StoreTransaction> | undefined
    return {
      opened: () => opening !== undefined,
      tools: {
        transaction(): Promise<Pick<StoreTransaction, 'query'>> {
          if (!store.begin)
            return Promise.reject(
              new WebhookError(
                'This store has no transactions: use postgresStore for transactional handlers.',
                {
                  code: 'invalid_options',
                },
              ),
            )
          opening ??= store.begin(event.key, owner)
          return opening.then((t) => ({ query: t.query }))
        },
      },
      /** True when the transaction committed the done mark; throws when it could not. */
      async commitDone(): Promise<boolean> {
        if (!opening) return false
        const held = await (await opening).commitDone(clock.now())
        if (!held) {
          logger.warn('webhooks: lost the lease before committing; the transaction was rolled back', {
            key: event.key,
          })
        }
        return true
      },
      async rollback(): Promise<void> {
        await opening?.then((t) => t.rollback()).catch(() => {})
      },
    }
  }

  async function settle(event: ClaimedEvent, owner: string, outcome: Parameters<WebhookStore['settle']>[2]) {
    try {
      const held = await store.settle(event.key, owner, outcome)
      if (!held)
        logger.warn('webhooks: an event was re-claimed before it settled; it may run twice', {
          key: event.key,
        })
    } catch (error) {
      // The lease will expire and the event run again: at least once, never lost.
      logger.error('webhooks: recording an outcome failed; the event will run again', {
        key: event.key,
        error: describeError(error),
      })
      // A store failure, not the handler's: reported as such (the event is neither failed nor dead).
      onFailure(undefined, error, undefined)
    }
  }

  return {
    wake() {
      if (active()) void pump()
    },
    start() {
      if (running) return
      running = true
      timer = setInterval(() => void pump(), pollIntervalMs)
      if (!init.keepAlive) timer.unref?.()
      // Stored or re-queued anywhere (another process, too): look now instead of at the next poll.
      subscription = store
        .subscribe?.(() => {
          if (active()) void pump()
        })
        .catch((error: unknown) => {
          logger.warn('webhooks: listening for new events failed; polling only', {
            error: describeError(error),
          })
          return undefined
        })
      void pump()
    },
    async stop() {
      running = false
      const unsubscribe = await subscription
      subscription = undefined
      await unsubscribe?.()
      if (yieldTimer) clearTimeout(yieldTimer)
      if (timer) clearInterval(timer)
      timer = undefined
      await current
      while (inFlight.size > 0) await Promise.all(inFlight)
    },
    async drain() {
      draining++
      try {
        for (;;) {
          const claimed = await pump()
          if (inFlight.size > 0) await Promise.race(inFlight)
          else if (claimed === 0 && !again) {
            // One more look: work may have been stored while the last claim was in flight.
            if ((await pump()) === 0 && inFlight.size === 0) return
          }
        }
      } finally {
        draining--
      }
    },
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new WebhookError(`Processing option ${name} must be a positive number.`, {
      code: 'invalid_options',
    })
  }
  return value
}
