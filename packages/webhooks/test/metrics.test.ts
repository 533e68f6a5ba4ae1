// The receiver's metrics through OpenTelemetry's own SDK (a MeterProvider and a reader collected
// by the test), over real deliveries into a SQLite store; onDeadLetter and health() beside them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics'
import { afterAll, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import type { DeadLetter } from '../src/receiver/processor.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import { runWorker } from '../src/receiver/run-worker.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import { otelMetrics } from '../src/telemetry/otel.ts'
import { manualClock } from './helpers.ts'

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const dir = mkdtempSync(join(tmpdir(), 'webhooks-metrics-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every data point of every instrument, by instrument name. */
async function collect(reader: MetricReader): Promise<Map<string, DataPoint<unknown>[]>> {
  const { resourceMetrics, errors } = await reader.collect()
  expect(errors).toEqual([])
  const byName = new Map<string, DataPoint<unknown>[]>()
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric.dataPoints)
  return byName
}

/** The value of the point whose attributes include `attributes` (0 when none). */
function value(
  points: Map<string, DataPoint<unknown>[]>,
  name: string,
  attributes: Record<string, string> = {},
) {
  const matching = (points.get(name) ?? []).filter((p) =>
    Object.entries(attributes).every(([k, v]) => p.attributes[k] === v),
  )
  return matching.reduce(
    (sum, p) => sum + (typeof p.value === 'number' ? p.value : (p.value as Histogram).count),
    0,
  )
}

const token = generateWebhookToken()
const post = (receiver: ReturnType<typeof createWebhookReceiver>, body: string, to = token) =>
  receiver.fetch(new Request(`https://hooks.example.com/webhooks/${to}`, { method: 'POST', body }))
const event = (eventId: string, eventType = 'MATERIAL_DELETED') =>
  JSON.stringify({ eventId, eventType, payload: { materialIds: ['1'] } })

describe('metrics through OpenTelemetry', () => {
  it('moves each instrument as events are received, duplicated, refused, fail, retry and die; gauges read the store', async () => {
    const reader = new TestReader()
    const meterProvider = new MeterProvider({ readers: [reader] })
    const store = sqliteStore(join(dir, 'metrics.sqlite'))
    const receiver = createWebhookReceiver({
      token,
      store,
      metrics: otelMetrics({ meterProvider }),
      processing: { retry: { maxRetries: 1, initialDelayMs: 5, maxDelayMs: 5 }, pollIntervalMs: 20 },
    })
    const dead: DeadLetter[] = []
    receiver.onDeadLetter((deadLetter) => void dead.push(deadLetter))
    let failedOnce = false
    receiver.onAny(async (_event, { key }) => {
      if (key === 'always') throw new Error(`still failing (token ${token})`)
      if (key === 'once' && !failedOnce) {
        failedOnce = true
        throw new Error('failing once')
      }
    })

    for (const body of [
      event('ok'),
      event('ok'),
      event('once'),
      event('always'),
      event('new', 'SOMETHING_NEW'),
    ])
      expect((await post(receiver, body)).status).toBe(200)
    expect((await post(receiver, '{not json')).status).toBe(400)
    expect((await post(receiver, event('x'), generateWebhookToken())).status).toBe(404)
    await expect.poll(async () => (await receiver.events.counts()).dead, { timeout: 10_000 }).toBe(1)
    await expect.poll(async () => (await receiver.events.counts()).done, { timeout: 10_000 }).toBe(3)

    const points = await collect(reader)
    expect(value(points, 'service.webhook.deliveries.received')).toBe(7)
    expect(value(points, 'service.webhook.events.stored')).toBe(4)
    expect(value(points, 'service.webhook.deliveries.duplicate')).toBe(1)
    expect(value(points, 'service.webhook.deliveries.refused', { 'error.type': 'malformed_json' })).toBe(1)
    expect(value(points, 'service.webhook.deliveries.refused', { 'error.type': 'invalid_token' })).toBe(1)
    expect(value(points, 'service.webhook.events.processed')).toBe(3)
    expect(value(points, 'service.webhook.events.processed', { 'webhook.event_type': '_OTHER' })).toBe(1)
    expect(value(points, 'service.webhook.events.retried')).toBe(2)
    expect(
      value(points, 'service.webhook.events.dead_lettered', { 'webhook.event_type': 'MATERIAL_DELETED' }),
    ).toBe(1)
    // Six attempts: three succeeded, three failed (once, then always twice).
    expect(value(points, 'service.webhook.handler.duration')).toBe(6)
    expect(value(points, 'service.webhook.handler.duration', { 'error.type': 'Error' })).toBe(3)
    // Five inserts reached the store (the refused deliveries did not): four stored, one duplicate.
    expect(value(points, 'service.webhook.store.commit.duration', { 'webhook.outcome': 'inserted' })).toBe(4)
    expect(value(points, 'service.webhook.store.commit.duration', { 'webhook.outcome': 'duplicate' })).toBe(1)
    expect(value(points, 'service.webhook.backlog', { 'webhook.status': 'done' })).toBe(3)
    expect(value(points, 'service.webhook.backlog', { 'webhook.status': 'dead' })).toBe(1)
    expect(value(points, 'service.webhook.backlog', { 'webhook.status': 'pending' })).toBe(0)
    expect(value(points, 'service.webhook.backlog.oldest_pending.age')).toBe(0)

    // The dead letter, told once, its error redacted.
    expect(dead).toEqual([
      {
        key: 'always',
        eventType: 'MATERIAL_DELETED',
        attempts: 2,
        receivedAt: expect.any(Number),
        orderKey: null,
        lastError: expect.stringContaining('still failing (token [REDACTED])'),
      },
    ])

    // A pending event received a minute ago: the gauges read it from the store.
    await receiver.stop()
    await store.insert({
      key: 'waiting',
      eventType: 'MATERIAL_DELETED',
      body: '{}',
      receivedAt: Date.now() - 60_000,
    })
    const later = await collect(reader)
    expect(value(later, 'service.webhook.backlog', { 'webhook.status': 'pending' })).toBe(1)
    const age = value(later, 'service.webhook.backlog.oldest_pending.age')
    expect(age).toBeGreaterThanOrEqual(60)
    expect(age).toBeLessThan(120)
    await receiver.close()
    // A store that does not answer (closed here) reports nothing: no stale figure, no error.
    await meterProvider.shutdown()
    const freshReader = new TestReader()
    const fresh = new MeterProvider({ readers: [freshReader] })
    otelMetrics({ meterProvider: fresh }).observe(store)
    const unanswered = await collect(freshReader)
    expect(unanswered.get('service.webhook.backlog') ?? []).toEqual([])
    await fresh.shutdown()
    // observeBacklog: false reads nothing, even from a store that answers.
    const quietReader = new TestReader()
    const quiet = new MeterProvider({ readers: [quietReader] })
    const open = sqliteStore(join(dir, 'metrics.sqlite'))
    otelMetrics({ meterProvider: quiet, observeBacklog: false }).observe(open)
    expect((await collect(quietReader)).get('service.webhook.backlog') ?? []).toEqual([])
    await open.close()
    await quiet.shutdown()
  }, 30_000)
})

describe('health()', () => {
  it('is ok while the store answers and the worker runs; says which check fails', async () => {
    const file = join(dir, 'health.sqlite')
    const receiver = createWebhookReceiver({
      token,
      store: sqliteStore(file),
      processing: { pollIntervalMs: 20 },
    })
    receiver.onAny(async () => {})
    await sleep(50)
    expect(await receiver.health()).toEqual({
      ok: true,
      store: { ok: true },
      worker: { ok: true, state: 'running', lastLoopAgeMs: expect.any(Number) },
    })
    // A pending event a minute old, with processing stopped: over a 30 s threshold.
    await receiver.stop()
    await receiver.store.insert({ key: 'old', eventType: 'X', body: '{}', receivedAt: Date.now() - 60_000 })
    const stale = await receiver.health({ maxBacklogAgeMs: 30_000 })
    expect(stale).toMatchObject({
      ok: false,
      worker: { ok: false, state: 'stopped' },
      backlog: { ok: false, maxAgeMs: 30_000, oldestPendingAgeMs: expect.any(Number) },
    })
    expect(stale.backlog!.oldestPendingAgeMs!).toBeGreaterThanOrEqual(60_000)
    expect((await receiver.health({ maxBacklogAgeMs: 120_000 })).backlog?.ok).toBe(true)
    await expect(receiver.health({ maxBacklogAgeMs: -1 })).rejects.toMatchObject({ code: 'validation_error' })
    await receiver.close()
    // A closed store does not answer.
    const closed = await receiver.health()
    expect(closed.store.ok).toBe(false)
    expect(closed.ok).toBe(false)

    const ingestOnly = createWebhookReceiver({ token, store: sqliteStore(file), processing: false })
    expect((await ingestOnly.health()).worker).toEqual({ ok: true, state: 'off', lastLoopAgeMs: null })
    await ingestOnly.close()
  })

  it('says the worker is not ok once its claim loop has not gone round for three poll intervals plus 30 s', async () => {
    const memory = memoryStoreForTests()
    // Claims that never answer: the loop is stuck in its first claim.
    const store = { ...memory, claim: () => new Promise<never>(() => {}) }
    const clock = manualClock()
    const receiver = createWebhookReceiver({ token, store, clock, processing: { pollIntervalMs: 20 } })
    await sleep(50)
    expect((await receiver.health()).worker).toEqual({ ok: true, state: 'running', lastLoopAgeMs: 0 })
    clock.advance(3 * 20 + 30_000)
    expect((await receiver.health()).worker.ok).toBe(true)
    clock.advance(1)
    expect(await receiver.health()).toMatchObject({
      ok: false,
      store: { ok: true },
      worker: { ok: false, state: 'running', lastLoopAgeMs: 30_061 },
    })
    await Promise.race([receiver.stop(), sleep(100)])
  })

  it('runWorker reports its own worker, and tells onDeadLetter; a handler of it that throws is logged', async () => {
    const store = sqliteStore(join(dir, 'worker.sqlite'))
    const dead: string[] = []
    const logged: string[] = []
    const worker = runWorker({
      store,
      logger: { error: (line: string) => void logged.push(line) },
      handlers: { '*': async () => Promise.reject(new Error('no')) },
      processing: { retry: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 }, pollIntervalMs: 20 },
      onDeadLetter: (deadLetter) => void dead.push(deadLetter.key),
    })
    worker.onDeadLetter(() => {
      throw new Error('the pager is down')
    })
    await store.insert({ key: 'k', eventType: 'MATERIAL_DELETED', body: event('k'), receivedAt: Date.now() })
    await expect.poll(() => dead, { timeout: 10_000 }).toEqual(['k'])
    await expect.poll(() => logged).toContain('webhooks: an onDeadLetter handler failed')
    // The worker goes on: the next dead letter is told too.
    await store.insert({
      key: 'k2',
      eventType: 'MATERIAL_DELETED',
      body: event('k2'),
      receivedAt: Date.now(),
    })
    await expect.poll(() => dead, { timeout: 10_000 }).toEqual(['k', 'k2'])
    expect((await worker.health()).worker.state).toBe('running')
    await worker.close()
  })
  it('onDeadLetter is told the dead letter without its body, and the error line without the token', async () => {
    const store = memoryStoreForTests()
    const told: { deadLetter: DeadLetter; message: string }[] = []
    const marker = 'body-marker-4f1c'
    const receiver = createWebhookReceiver({
      token,
      store,
      processing: { retry: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 }, pollIntervalMs: 20 },
    })
    receiver.onAny(async () => {
      throw new Error(`refused for ${token}`)
    })
    receiver.onDeadLetter((deadLetter, error) => void told.push({ deadLetter, message: error.message }))
    const body = JSON.stringify({
      eventId: 'd1',
      eventType: 'MATERIAL_DELETED',
      payload: { materialIds: ['1'], note: marker },
    })
    expect((await post(receiver, body)).status).toBe(200)
    await expect.poll(() => told.length, { timeout: 10_000 }).toBe(1)
    const { deadLetter } = told[0]!
    expect(deadLetter).toMatchObject({ key: 'd1', eventType: 'MATERIAL_DELETED', attempts: 1 })
    expect(deadLetter.lastError).toContain('refused for')
    expect(JSON.stringify(deadLetter)).not.toContain(marker)
    expect(JSON.stringify(deadLetter)).not.toContain(token)
    await receiver.close()
  })
})
