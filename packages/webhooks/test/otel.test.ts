// Webhook deliveries and their processing traced through @opentelemetry/api into the in-memory
// exporter: a span per delivery (outcome, event type) and per processing attempt (done, retry,
// dead), never the token; nothing when no tracing SDK is registered.
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { otelInstrumentation } from '@service-sdk/core/otel'
import { afterEach, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { manualClock, post } from './helpers.ts'
import * as S from './samples.ts'

const token = generateWebhookToken()
const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
afterEach(() => exporter.reset())

function tracedReceiver(maxRetries = 2) {
  const clock = manualClock()
  const receiver = createWebhookReceiver({
    token,
    store: memoryStoreForTests(),
    clock,
    processing: { autoStart: false, retry: { maxRetries, initialDelayMs: 1000, maxDelayMs: 1000 } },
    instrumentation: otelInstrumentation({ tracerProvider: provider }),
  })
  return { receiver, clock }
}

const spansNamed = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name)

describe('webhook spans', () => {
  it('a span per delivery: stored, duplicate, refused; never the token', async () => {
    const { receiver } = tracedReceiver()
    await post(receiver, token, S.deletedRecycle)
    await post(receiver, token, S.deletedRecycle)
    await post(receiver, generateWebhookToken(), S.deletedRecycle)
    await post(receiver, token, '{"eventType":')
    const spans = spansNamed('service.webhook.receive')
    expect(spans.map((s) => s.kind)).toEqual([
      SpanKind.SERVER,
      SpanKind.SERVER,
      SpanKind.SERVER,
      SpanKind.SERVER,
    ])
    expect(spans.map((s) => s.attributes)).toEqual([
      {
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'webhook.outcome': 'stored',
        'webhook.event_type': 'MATERIAL_DELETED',
        'webhook.key': 'evt_deleted_1',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'webhook.outcome': 'duplicate',
        'webhook.event_type': 'MATERIAL_DELETED',
        'webhook.key': 'evt_deleted_1',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 404,
        'webhook.outcome': 'refused',
        'error.type': 'invalid_token',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 400,
        'webhook.outcome': 'refused',
        'error.type': 'malformed_json',
      },
    ])
    expect(spans.map((s) => s.status.code)).toEqual([
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
    ])
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events]))).not.toContain(
      token,
    )
    await receiver.close()
  })

  it('a span per processing attempt: a failure to be retried, then done', async () => {
    const { receiver, clock } = tracedReceiver()
    let runs = 0
    receiver.on('MATERIAL_ADDED_TO_FOLDER', async () => {
      if (++runs === 1) throw new TypeError('downstream unavailable')
    })
    await post(receiver, token, S.addedToFolder)
    await receiver.drain()
    clock.advance(1000)
    await receiver.drain()
    const spans = spansNamed('service.webhook.process')
    expect(spans.map((s) => [s.kind, s.attributes])).toEqual([
      [
        SpanKind.CONSUMER,
        {
          'webhook.event_type': 'MATERIAL_ADDED_TO_FOLDER',
          'webhook.key': 'evt_added_1',
          'webhook.attempt': 1,
          'error.type': 'TypeError',
          'webhook.outcome': 'retry',
        },
      ],
      [
        SpanKind.CONSUMER,
        {
          'webhook.event_type': 'MATERIAL_ADDED_TO_FOLDER',
          'webhook.key': 'evt_added_1',
          'webhook.attempt': 2,
          'webhook.outcome': 'done',
        },
      ],
    ])
    expect(spans[0]?.status.code).toBe(SpanStatusCode.ERROR)
    await receiver.close()
  })

  it('the last attempt of a failing event ends as dead', async () => {
    const { receiver } = tracedReceiver(0)
    receiver.on('MATERIAL_DELETED', async () => {
      throw new RangeError('never works')
    })
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    const [span] = spansNamed('service.webhook.process')
    expect(span?.attributes).toMatchObject({ 'webhook.outcome': 'dead', 'webhook.attempt': 1 })
    await receiver.close()
  })

  it('records nothing when no tracing SDK is registered', async () => {
    const receiver = createWebhookReceiver({
      token,
      store: memoryStoreForTests(),
      processing: { autoStart: false },
      instrumentation: otelInstrumentation(),
    })
    receiver.onAny(() => {})
    expect((await post(receiver, token, S.deletedRecycle)).status).toBe(200)
    await receiver.drain()
    expect(exporter.getFinishedSpans()).toEqual([])
    await receiver.close()
  })

  it('a processing span starts a trace of its own, not a child of the delivery that woke the worker; handler spans nest under it', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    try {
      const receiver = createWebhookReceiver({
        token,
        store: memoryStoreForTests(),
        instrumentation: otelInstrumentation({ tracerProvider: provider }),
      })
      const handled = Promise.withResolvers<void>()
      receiver.on('MATERIAL_DELETED', async () => {
        provider.getTracer('app').startSpan('handler work').end()
        handled.resolve()
      })
      await new Promise((resolve) => setImmediate(resolve)) // the worker has started and found nothing
      // The delivery's span is active while it is stored, and the worker is woken from inside it.
      await post(receiver, token, S.deletedRecycle)
      await handled.promise
      await receiver.close()
      const [received] = spansNamed('service.webhook.receive')
      const [processed] = spansNamed('service.webhook.process')
      const [work] = spansNamed('handler work')
      expect(processed?.parentSpanContext).toBeUndefined()
      expect(processed?.spanContext().traceId).not.toBe(received?.spanContext().traceId)
      expect(work?.parentSpanContext?.spanId).toBe(processed?.spanContext().spanId)
    } finally {
      context.disable()
    }
  })
})
