/**
 * `@service-sdk/webhooks/otel`: the receiver's and the worker's metrics as OpenTelemetry
 * instruments, through `@opentelemetry/api` (an optional peer dependency): to the meter provider
 * you registered (`NodeSDK`, `MeterProvider`), or nowhere when none is. See the README's
 * "Metrics" for each instrument, its unit and attributes.
 * @packageDocumentation
 */
export { METER_NAME, type OtelMetricsOptions, otelMetrics, type WebhookMetrics } from './telemetry/otel.ts'
