// Client calls traced through @opentelemetry/api into the in-memory exporter, over a real socket:
// a span per call named by the path template, retries as events, the service's traceId, no secret;
// the span active while the call runs and its context sent as `traceparent`.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Instrumentation, ServiceValidationError } from '../src/index.ts'
import { createOpenTransport, operation } from '../src/internal.ts'
import { otelInstrumentation } from '../src/tracing/otel.ts'

const TOKEN = { type: 'Bearer', value: 'ot_fedcba9876543210' }
const STS_SECRET = 'sts-secret-0123456789'
const PATH = '/open-api/standard/call/service/sts-tmp'

/** Answers each request with the next of `script` (an HTTP status, or 200 with a success envelope). */
let script: number[] = []
/** The `traceparent` header of each request received. */
let received: (string | undefined)[] = []
let server: Server
let baseUrl: string
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    received.push(req.headers.traceparent)
    const status = script.shift() ?? 200
    if (status !== 200) return void res.writeHead(status, { 'content-type': 'text/plain' }).end('busy')
    const result = { accessKeyId: 'STS.id', accessKeySecret: STS_SECRET, securityToken: 'sts-token-x' }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ code: '0', message: 'success', result, traceId: 'trace-abc' }))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
afterEach(() => {
  exporter.reset()
  script = []
  received = []
})

function call(instrumentation: Instrumentation | undefined, fetch?: typeof globalThis.fetch) {
  const t = createOpenTransport({
    openUrl: baseUrl,
    token: TOKEN,
    ...(instrumentation ? { instrumentation } : {}),
    ...(fetch ? { fetch } : {}),
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
  })
  return t.send({ operation: operation('POST', PATH), idempotent: true })
}

describe('otelInstrumentation on a client', () => {
  it('records one client span per call: template, status, traceId, retries as events, no secret', async () => {
    script = [503]
    await call(otelInstrumentation({ tracerProvider: provider }))
    const spans = exporter.getFinishedSpans()
    expect(spans).toHaveLength(1)
    const [span] = spans
    expect(span?.name).toBe(`POST ${PATH}`)
    expect(span?.kind).toBe(SpanKind.CLIENT)
    expect(span?.status.code).toBe(SpanStatusCode.UNSET)
    expect(span?.attributes).toEqual({
      'http.request.method': 'POST',
      'url.template': PATH,
      'service.area': 'open',
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
      'service.trace_id': 'trace-abc',
    })
    expect(span?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'retry',
        {
          'service.attempt': 1,
          'error.type': expect.any(String),
          'http.response.status_code': 503,
          'retry.delay_ms': expect.any(Number),
        },
      ],
    ])
    const recorded = JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status]))
    for (const secret of [TOKEN.value, STS_SECRET, 'sts-token-x']) expect(recorded).not.toContain(secret)
  })

  it('marks a call that failed after its retries as an error, with the error code only', async () => {
    script = [503, 503, 503]
    await expect(call(otelInstrumentation({ tracerProvider: provider }))).rejects.toThrow()
    const [span] = exporter.getFinishedSpans()
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: span?.attributes['error.type'] })
    expect(span?.attributes).toMatchObject({
      'http.response.status_code': 503,
      'http.request.resend_count': 2,
    })
    expect(span?.events.map((e) => e.name)).toEqual(['retry', 'retry'])
  })

  it('records nothing when no tracing SDK is registered', async () => {
    const instrumentation = otelInstrumentation() // the global provider: the API's no-op
    expect(instrumentation.startSpan('x', 'internal').recording).toBe(false)
    await call(instrumentation)
    expect(exporter.getFinishedSpans()).toEqual([])
  })

  it("follows the registered SDK and nests a call under the caller's active span", async () => {
    const manager = new AsyncLocalStorageContextManager().enable()
    context.setGlobalContextManager(manager)
    trace.setGlobalTracerProvider(provider)
    try {
      const instrumentation = otelInstrumentation()
      const parent = instrumentation.startSpan('upload', 'internal')
      await parent.run(() => call(instrumentation))
      parent.end()
      const [child, outer] = exporter.getFinishedSpans()
      expect(outer?.name).toBe('upload')
      expect(child?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId)
    } finally {
      trace.disable()
      context.disable()
    }
  })

  it('refuses a tracerProvider that is not one', () => {
    expect(() => otelInstrumentation({ tracerProvider: {} as never })).toThrow(ServiceValidationError)
  })
})

/** Runs `fn` with a context manager, the W3C propagator and `provider` registered globally. */
async function withGlobals(fn: () => Promise<void>) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  try {
    await fn()
  } finally {
    trace.disable()
    propagation.disable()
    context.disable()
  }
}

describe('trace context of a client call', () => {
  it("sends the call's span as traceparent, on every attempt", async () => {
    await withGlobals(async () => {
      script = [503]
      await call(otelInstrumentation())
      const [span] = exporter.getFinishedSpans()
      const { traceId, spanId } = span?.spanContext() ?? {}
      expect(received).toEqual([`00-${traceId}-${spanId}-01`, `00-${traceId}-${spanId}-01`])
    })
  })

  it("continues the caller's trace: the traceparent carries the active span's trace id", async () => {
    await withGlobals(async () => {
      const outer = otelInstrumentation().startSpan('job', 'internal')
      await outer.run(() => call(otelInstrumentation()))
      outer.end()
      const [child, parent] = exporter.getFinishedSpans()
      expect(child?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId)
      expect(received[0]?.split('-')[1]).toBe(parent?.spanContext().traceId)
    })
  })

  it("makes the call's span active while it runs: spans started inside it nest under it", async () => {
    await withGlobals(async () => {
      const tracer = trace.getTracer('app')
      // A traced fetch, as an HTTP instrumentation would make: its span is a child of the active one.
      const tracedFetch: typeof globalThis.fetch = (input, init) =>
        tracer.startActiveSpan('fetch', async (span) => {
          try {
            return await fetch(input, init)
          } finally {
            span.end()
          }
        })
      await call(otelInstrumentation(), tracedFetch)
      const [fetchSpan, callSpan] = exporter.getFinishedSpans()
      expect(callSpan?.name).toBe(`POST ${PATH}`)
      expect(fetchSpan?.parentSpanContext?.spanId).toBe(callSpan?.spanContext().spanId)
      expect(trace.getActiveSpan()).toBeUndefined()
    })
  })

  it('sends no trace header without instrumentation, or without a registered propagator', async () => {
    await withGlobals(() => call(undefined))
    await call(otelInstrumentation({ tracerProvider: provider }))
    expect(received).toEqual([undefined, undefined])
    expect(exporter.getFinishedSpans()).toHaveLength(1)
  })

  it("from a browser page, sends trace headers to the page's own origin only", async () => {
    vi.stubGlobal('document', {})
    try {
      await withGlobals(async () => {
        vi.stubGlobal('location', { origin: 'https://app.example' })
        await call(otelInstrumentation())
        vi.stubGlobal('location', { origin: baseUrl })
        await call(otelInstrumentation())
      })
    } finally {
      vi.unstubAllGlobals()
    }
    expect(received[0]).toBeUndefined()
    expect(received[1]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
  })

  it('puts no secret in the trace headers', async () => {
    await withGlobals(() => call(otelInstrumentation()))
    for (const secret of [TOKEN.value, STS_SECRET]) expect(received.join()).not.toContain(secret)
  })
})

describe('span placement', () => {
  it('starts a trace of its own with root, even under an active span', async () => {
    await withGlobals(async () => {
      const instrumentation = otelInstrumentation()
      const outer = instrumentation.startSpan('outer', 'internal')
      outer.run(() => instrumentation.startSpan('detached', 'consumer', {}, { root: true }).end())
      outer.end()
      const [detached, parent] = exporter.getFinishedSpans()
      expect(detached?.parentSpanContext).toBeUndefined()
      expect(detached?.spanContext().traceId).not.toBe(parent?.spanContext().traceId)
    })
  })
})
