/**
 * The SDK's tracing seam: the packages describe what they do (a call, an upload, a webhook
 * delivery) through this small interface, and `@service-sdk/core/otel` implements it with
 * OpenTelemetry. Without an `instrumentation` option nothing is created at all.
 */

/** Attribute values; `undefined` ones are left out. Never a secret, a URL with a token, or a body. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>

/** What the span measures, as OpenTelemetry's span kinds. */
export type SpanRole = 'client' | 'server' | 'consumer' | 'internal'

/** One span being recorded (or not: see `recording`). */
export interface SpanHandle {
  /** False when nothing is recorded (no tracing SDK registered): skip computing attributes. */
  readonly recording: boolean
  /** Sets attributes; `undefined` values are left out. */
  setAttributes(attributes: SpanAttributes): void
  /** Records a timestamped event on this span. */
  addEvent(name: string, attributes?: SpanAttributes): void
  /**
   * Ends the span; with an error, marks it failed with the error's class and `code` (never its
   * message: messages may quote what the service or a caller sent).
   */
  end(error?: unknown): void
  /** Runs `fn` with this span as the parent of the spans started inside it (across awaits). */
  run<T>(fn: () => T): T
  /**
   * Writes this span's context into outgoing request headers (`traceparent` with the W3C
   * propagator), through the propagator the application registered; nothing without one.
   */
  inject?(headers: Record<string, string>): void
}

/** How a span is placed in its trace. */
export interface SpanOptions {
  /**
   * Starts a trace of its own instead of a child of the active span: for work whose active
   * context is incidental (a webhook worker woken by whichever request or timer came first).
   */
  root?: boolean
}

/** Pass one as the `instrumentation` option of a client or a webhook receiver (see `@service-sdk/core/otel`). */
export interface Instrumentation {
  /** Starts a span (a child of the active one, if any, unless `options.root`); the caller ends it. */
  startSpan(name: string, role: SpanRole, attributes?: SpanAttributes, options?: SpanOptions): SpanHandle
  /** Adds an event to the span that is active now (the upload being served, for instance), if any. */
  addEvent(name: string, attributes?: SpanAttributes): void
}

const NOOP_SPAN: SpanHandle = {
  recording: false,
  setAttributes() {},
  addEvent() {},
  end() {},
  run: (fn) => fn(),
}

/** A span from `instrumentation`, or one that does nothing when there is none. */
export function startSpan(
  instrumentation: Instrumentation | undefined,
  name: string,
  role: SpanRole,
  attributes?: SpanAttributes,
  options?: SpanOptions,
): SpanHandle {
  return instrumentation ? instrumentation.startSpan(name, role, attributes, options) : NOOP_SPAN
}

/** The error attributes a span may carry: its class and code, nothing it says. */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code
    const name = (error as { name?: unknown }).name
    if (typeof name === 'string') return name
  }
  return 'unknown'
}
