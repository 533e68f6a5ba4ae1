// Uploads traced through @opentelemetry/api into the in-memory exporter: the simulator's object
// store through the real ali-oss, with a failed part and credentials expiring mid-upload.
import { context, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { UploadError } from '@service-sdk/core'
import { otelInstrumentation } from '@service-sdk/core/otel'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'
import { createUploadProxy } from '../src/proxy/index.ts'
import { KiB, MiB, testBytes } from './upload/helpers.ts'

let sim: RunningSimulator
const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
/** Every STS secret the service issued in this file: none may reach a span. */
const issuedSecrets: string[] = []

beforeAll(async () => {
  sim = await startSimulator()
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  trace.setGlobalTracerProvider(provider)
})
afterEach(() => {
  sim.control.faults.clear()
  exporter.reset()
})
afterAll(async () => {
  trace.disable()
  context.disable()
  await sim.stop()
})

function tracedClient() {
  return createOpenClient({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    instrumentation: otelInstrumentation(),
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    uploads: { retry: { initialDelayMs: 1, maxDelayMs: 10 } },
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      if (String(input).endsWith('/sts-tmp')) {
        const { result } = (await response.clone().json()) as {
          result: { accessKeySecret: string; securityToken: string }
        }
        issuedSecrets.push(result.accessKeySecret, result.securityToken)
      }
      return response
    },
  })
}

describe('upload spans', () => {
  test('one span per upload: bytes, parts, a part sent again, a credential refresh; the calls nest under it', async () => {
    const open = tracedClient()
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 503 },
      times: 1,
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 5 },
      action: { type: 'expire-credentials' },
    })
    const bytes = testBytes(2 * MiB)
    await open.upload(bytes, { name: 'traced', extension: 'bin', partSize: 256 * KiB, parallel: 2 }).done()

    const spans = exporter.getFinishedSpans()
    const uploads = spans.filter((s) => s.name === 'service.upload')
    expect(uploads).toHaveLength(1)
    const [upload] = uploads
    expect(upload?.status.code).toBe(SpanStatusCode.UNSET)
    expect(upload?.attributes).toMatchObject({
      'upload.attempt': 1,
      'upload.bytes': bytes.length,
      'upload.bytes_sent': bytes.length,
      'upload.parts': 8,
      'upload.phase': 'done',
    })
    expect(upload?.attributes['upload.parts_resent']).toBeGreaterThanOrEqual(1)
    expect(upload?.events.filter((e) => e.name === 'upload.credentials_issued')).toHaveLength(2)

    // The service calls made for the upload are its children, named by their path template.
    const children = spans.filter((s) => s.parentSpanContext?.spanId === upload?.spanContext().spanId)
    const names = children.map((s) => s.name)
    expect(names.filter((n) => n.endsWith('/sts-tmp'))).toHaveLength(2)
    expect(names.some((n) => n.includes('material'))).toBe(true)

    expect(issuedSecrets.length).toBeGreaterThanOrEqual(4)
    const recorded = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status]))
    for (const secret of [...issuedSecrets, sim.credentials.openToken.value])
      expect(recorded).not.toContain(secret)
  })

  test('a failed upload ends its span as an error with the error code', async () => {
    const open = tracedClient()
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 403 },
      times: Infinity,
    })
    const error = await open
      .upload(Buffer.from('denied'), { name: 'denied', extension: 'txt' })
      .done()
      .then(
        () => undefined,
        (e: unknown) => e as UploadError,
      )
    expect(error).toBeInstanceOf(UploadError)
    const [upload] = exporter.getFinishedSpans().filter((s) => s.name === 'service.upload')
    expect(upload?.status.code).toBe(SpanStatusCode.ERROR)
    expect(upload?.attributes['error.type']).toBe(error?.code)
  })

  test('uploadMany: a span per file', async () => {
    const open = tracedClient()
    const batch = open.uploadMany([
      { source: Buffer.from('a'), name: 'a', extension: 'txt' },
      { source: Buffer.from('bb'), name: 'b', extension: 'txt' },
    ])
    await batch.done()
    const uploads = exporter.getFinishedSpans().filter((s) => s.name === 'service.upload')
    expect(uploads.map((s) => s.attributes['upload.bytes']).sort()).toEqual([1, 2])
  })

  test('a client through the upload proxy traces its uploads the same way', async () => {
    const proxy = createUploadProxy({
      openUrl: sim.urls.open,
      token: sim.credentials.openToken,
      authorize: () => ({ id: 'traced-user' }),
    })
    const open = createOpenClient({
      proxyUrl: 'http://app.test/api/upload',
      fetch: async (input, init) => proxy(new Request(input, init)),
      instrumentation: otelInstrumentation(),
    })
    await open.upload(Buffer.from('through the proxy'), { name: 'proxied', extension: 'txt' }).done()
    const spans = exporter.getFinishedSpans()
    const uploads = spans.filter((s) => s.name === 'service.upload')
    expect(uploads).toHaveLength(1)
    expect(uploads[0]?.attributes).toMatchObject({ 'upload.bytes': 17, 'upload.phase': 'done' })
    // The calls to the proxy made for the upload are its children.
    const children = spans.filter((s) => s.parentSpanContext?.spanId === uploads[0]?.spanContext().spanId)
    expect(children.some((s) => s.name.includes('material'))).toBe(true)
  })
})
