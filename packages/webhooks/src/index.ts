// Every name exported here is named in the README's "Exported names" (test/documented-exports.test.ts).

// Thrown by handlers' service calls and listed in the README: re-exported so one package is enough.
export { ServiceError, type ServiceErrorJSON, ServiceValidationError } from '@service-sdk/core'
export {
  WebhookError,
  type WebhookErrorCode,
  WebhookHandlerError,
  type WebhookHandlerErrorInit,
} from './errors.ts'
export { MAX_JSON_DEPTH } from './events/decode.ts'
export type {
  AssetWebhookEvent,
  EventTimeFields,
  FolderContentEvent,
  KnownEventType,
  KnownWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
  WithTime,
} from './events/events.ts'
export { isKnownEvent, parseWebhook, type ReadOptions } from './events/parse.ts'
export type { SchemaWarning } from './events/warnings.ts'
export { DEFAULT_MAX_BODY_BYTES } from './intake/body.ts'
export type { Delivery, Receipt } from './intake/delivery.ts'
export type { OrderBy } from './intake/order-key.ts'
export { generateWebhookToken } from './intake/token.ts'
export type { Health, HealthOptions } from './receiver/health.ts'
export type {
  DeadLetter,
  DeadLetterHandler,
  HandlerContext,
  WebhookHandler,
  WebhookHandlers,
} from './receiver/processor.ts'
export type { Readiness } from './receiver/readiness.ts'
export {
  createWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver/receiver.ts'
export { DEFAULT_RETENTION, type RetentionOptions, type RetentionSettings } from './receiver/retention.ts'
export { type RunWorkerOptions, runWorker, type WebhookWorker } from './receiver/run-worker.ts'
export {
  type PgClient,
  type PgQueryable,
  type PostgresStoreOptions,
  postgresStore,
} from './stores/postgres/postgres.ts'
export { type SqliteStoreOptions, sqliteStore } from './stores/sqlite/sqlite.ts'
export type {
  ArrivalLease,
  ClaimedEvent,
  ClaimOptions,
  EventPage,
  EventStatus,
  ListOptions,
  NewEvent,
  PageOrder,
  PageQuery,
  PruneOptions,
  RequeueOptions,
  Settlement,
  StoredEvent,
  StoreTransaction,
  WebhookStore,
} from './stores/store.ts'
export { PAGE_SCAN_BUDGET } from './stores/store-checks.ts'
export type { WebhookMetrics } from './telemetry/metrics.ts'
export type { EventRetryOptions, ProcessingOptions, WorkerClock } from './worker/worker.ts'
