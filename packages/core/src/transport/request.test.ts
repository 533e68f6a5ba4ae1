import { describe, expect, test } from 'vitest'
import {
  ServiceConnectionError,
  ServiceError,
  ServiceRateLimitError,
  ServiceServerError,
  ServiceTimeoutError,
} from '../errors/errors.ts'
import { type Logger, silentLogger } from '../logging/logger.ts'
import { createRedactor } from '../logging/redact.ts'
import type { Clock, RequestContext } from './context.ts'
import { type AttemptSpec, execute, type RawResponse } from './request.ts'
import { resolveRetry } from './retry.ts'

/** A clock whose sleeps return at once and are recorded. */
function fakeClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = []
  let now = 0
  return {
    sleeps,
    now: () => now,
    random: () => 0.5,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted()
      sleeps.push(ms)
      now += ms
    },
  }
}

function context(clock: Clock, overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    area: 'team',
    timeoutMs: 1_000,
    retry: resolveRetry({ maxRetries: 3, initialDelayMs: 100, maxDelayMs: 10_000 }),
    logger: silentLogger,
    redact: createRedactor(),
    clock,
    ...overrides,
  }
}

const ok: RawResponse = { status: 200, headers: new Headers(), text: 'ok' }
const serverError = () =>
  new ServiceServerError({
    status: 503,
    code: 'server_error',
    message: 'down',
    area: 'team',
    method: 'GET',
    path: '/p',
  })

/** An attempt whose sends fail with the given errors in turn, then succeed. */
function spec(failures: unknown[], extra: Partial<AttemptSpec<string>> = {}) {
  let sends = 0
  const s: AttemptSpec<string> & { sends: () => number } = {
    method: 'GET',
    path: '/p',
    idempotent: true,
    send: async () => {
      const failure = failures[sends++]
      if (failure !== undefined) throw failure
      return ok
    },
    unwrap: (r) => ({ value: r.text, traceId: undefined }),
    sends: () => sends,
    ...extra,
  }
  return s
}

describe('execute: retries', () => {
  test('retries transient failures with growing backoff, then succeeds', async () => {
    const clock = fakeClock()
    const s = spec([serverError(), new TypeError('fetch failed'), serverError()])
    await expect(execute(context(clock), s)).resolves.toBe('ok')
    expect(s.sends()).toBe(4)
    // equal jitter at random() = 0.5: 3/4 of 100, 200, 400
    expect(clock.sleeps).toEqual([75, 150, 300])
  })

  test('gives up after maxRetries with the last typed error', async () => {
    const clock = fakeClock()
    const s = spec([serverError(), serverError(), serverError(), serverError(), serverError()])
    const error = await execute(context(clock), s).catch((e: unknown) => e)
    expect(ServiceServerError.isInstance(error)).toBe(true)
    expect(s.sends()).toBe(4)
  })

  test('honours Retry-After', async () => {
    const clock = fakeClock()
    const limited = new ServiceRateLimitError({
      status: 429,
      code: 'rate_limited',
      message: 'slow down',
      area: 'team',
      method: 'GET',
      path: '/p',
      retryAfterMs: 2_000,
    })
    await execute(context(clock), spec([limited]))
    expect(clock.sleeps).toEqual([2_000])
  })

  test('a create is not retried after a failure that may have reached the server', async () => {
    for (const failure of [serverError(), new TypeError('fetch failed')]) {
      const s = spec([failure], { method: 'POST', idempotent: false })
      await expect(execute(context(fakeClock()), s)).rejects.toSatisfy((e) => ServiceError.isInstance(e))
      expect(s.sends()).toBe(1)
    }
  })

  test('a create is retried when the connection was refused (never sent)', async () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    })
    const s = spec([refused], { method: 'POST', idempotent: false })
    await expect(execute(context(fakeClock()), s)).resolves.toBe('ok')
    expect(s.sends()).toBe(2)
  })

  test('network failures become ServiceConnectionError saying whether the request left', async () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    })
    const ctx = context(fakeClock(), { retry: resolveRetry(false) })
    const e1 = await execute(ctx, spec([refused])).catch((e: unknown) => e)
    expect(ServiceConnectionError.isInstance(e1) && e1.reachedServer).toBe(false)
    const e2 = await execute(ctx, spec([new TypeError('fetch failed')])).catch((e: unknown) => e)
    expect(ServiceConnectionError.isInstance(e2) && e2.reachedServer).toBe('unknown')
  })

  test('logs a warning per retry, without secrets', async () => {
    const lines: Array<[string, unknown]> = []
    const logger: Logger = { ...silentLogger, warn: (m, f) => lines.push([m, f]) }
    await execute(context(fakeClock(), { logger }), spec([serverError()]))
    expect(lines).toHaveLength(1)
    expect(lines[0]?.[1]).toMatchObject({ attempt: 1, code: 'server_error', status: 503, delayMs: 75 })
  })
})

describe('execute: timeouts and aborts', () => {
  /** A send that never answers but honours its signal, as fetch does. */
  const hang = (signal: AbortSignal) =>
    new Promise<RawResponse>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))

  test('an attempt that exceeds timeoutMs is a ServiceTimeoutError, and is retried', async () => {
    let sends = 0
    const ctx = context(fakeClock(), { timeoutMs: 20, retry: resolveRetry({ maxRetries: 1 }) })
    const error = await execute(ctx, {
      ...spec([]),
      send: (signal) => {
        sends++
        return hang(signal)
      },
    }).catch((e: unknown) => e)
    expect(ServiceTimeoutError.isInstance(error)).toBe(true)
    expect((error as ServiceTimeoutError).timeoutMs).toBe(20)
    expect(sends).toBe(2)
  })

  test("a caller's abort rejects with the caller's reason, is not a timeout, and is not retried", async () => {
    const controller = new AbortController()
    let sends = 0
    const reason = new Error('user cancelled')
    const pending = execute(context(fakeClock(), { timeoutMs: 60_000 }), {
      ...spec([]),
      signal: controller.signal,
      send: (signal) => {
        sends++
        return hang(signal)
      },
    })
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
    expect(sends).toBe(1)
  })

  test('an already-aborted signal sends nothing', async () => {
    const s = spec([])
    await expect(execute(context(fakeClock()), { ...s, signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    })
    expect(s.sends()).toBe(0)
  })

  test('an abort during the backoff pause stops the retries', async () => {
    const controller = new AbortController()
    const clock = fakeClock()
    clock.sleep = async (_ms, signal) => {
      controller.abort(new Error('stop'))
      signal?.throwIfAborted()
    }
    const s = spec([serverError(), serverError()], { signal: controller.signal })
    await expect(execute(context(clock), s)).rejects.toThrow('stop')
    expect(s.sends()).toBe(1)
  })
})
