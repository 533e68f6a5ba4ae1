/**
 * OpenTelemetry for the SDK: `instrumentation: otelInstrumentation()` on a client or a webhook
 * receiver. Spans go through `@opentelemetry/api` (an optional peer dependency): to the SDK you
 * registered, or nowhere (the API's no-op tracer) when none is registered. A client call's span
 * is the active span while the call runs, and its context goes out in the request's headers
 * through the registered propagator (`traceparent` with the W3C one).
 * @packageDocumentation
 */
import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api'
import { ServiceValidationError } from '../errors/errors.ts'
import { VERSION } from '../version.ts'
import {
  errorType,
  type Instrumentation,
  type SpanAttributes,
  type SpanHandle,
  type SpanRole,
} from './instrumentation.ts'

export type { Instrumentation, SpanAttributes, SpanHandle, SpanOptions, SpanRole } from './instrumentation.ts'

/** Options of {@link otelInstrumentation}. */
export interface OtelInstrumentationOptions {
  /** Default: the global provider (what `NodeSDK.start()` or `provider.register()` set). */
  tracerProvider?: TracerProvider
}

/** The tracer's name in your backend; its version is the SDK's. */
export const TRACER_NAME = '@service-sdk'

const KINDS: Record<SpanRole, SpanKind> = {
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
}

/**
 * The SDK's spans as OpenTelemetry spans, for the `instrumentation` option of the clients, the
 * webhook receiver and `runWorker`. Throws `ServiceValidationError` for a `tracerProvider` that is not one.
 */
export function otelInstrumentation(options: OtelInstrumentationOptions = {}): Instrumentation {
  const provider = options.tracerProvider
  if (provider !== undefined && typeof provider?.getTracer !== 'function') {
    throw new ServiceValidationError('otelInstrumentation options', [
      { path: 'tracerProvider', message: 'must be an OpenTelemetry TracerProvider (with getTracer)' },
    ])
  }
  // The global provider is a proxy: a tracer taken now follows an SDK registered later.
  const tracer = (provider ?? trace.getTracerProvider()).getTracer(TRACER_NAME, VERSION)
  return {
    startSpan(name, role, attributes, options) {
      const root = options?.root === true
      return handle(tracer.startSpan(name, { kind: KINDS[role], attributes: defined(attributes), root }))
    },
    addEvent(name, attributes) {
      trace.getActiveSpan()?.addEvent(name, defined(attributes))
    },
  }
}

function handle(span: Span): SpanHandle {
  return {
    recording: span.isRecording(),
    setAttributes: (attributes) => void span.setAttributes(defined(attributes)),
    addEvent: (name, attributes) => void span.addEvent(name, defined(attributes)),
    end(error) {
      if (error !== undefined) {
        const type = errorType(error)
        span.setAttribute('error.type', type)
        span.setStatus({ code: SpanStatusCode.ERROR, message: type })
      }
      span.end()
    },
    run: (fn) => context.with(trace.setSpan(context.active(), span), fn),
    // The span itself, not whatever is active: without a context manager nothing is active.
    inject: (headers) => propagation.inject(trace.setSpan(context.active(), span), headers),
  }
}

function defined(attributes: SpanAttributes | undefined): Attributes {
  const out: Attributes = {}
  if (attributes === undefined) return out
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value
  return out
}
