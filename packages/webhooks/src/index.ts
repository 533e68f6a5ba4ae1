// Thrown by handlers' service calls and listed in the README: re-exported so one package is enough.

export type { RetryOptions } from '@service-sdk/core'
export { ServiceError, type ServiceErrorJSON, ServiceValidationError } from '@service-sdk/core'
export { DEFAULT_MAX_BODY_BYTES } from './body.ts'
export { MAX_JSON_DEPTH } from './decode.ts'
export {
  WebhookError,
  type WebhookErrorCode,
  WebhookHandlerError,
  type WebhookHandlerErrorInit,
} from './errors.ts'
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
} from './events.ts'
export type { Health, HealthOptions } from './health.ts'
export type { WebhookMetrics } from './metrics.ts'
export type { OrderBy } from './order-key.ts'
export { isKnownEvent, parseWebhook, type ReadOptions } from './parse.ts'
export type {
  DeadLetter,
  DeadLetterHandler,
  HandlerContext,
  WebhookHandler,
  WebhookHandlers,
} from './processor.ts'
export type { Readiness } from './readiness.ts'
export {
  createWebhookReceiver,
  type Delivery,
  type Receipt,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.ts'
export { DEFAULT_RETENTION, type RetentionOptions, type RetentionSettings } from './retention.ts'
export { type RunWorkerOptions, runWorker, type WebhookWorker } from './run-worker.ts'
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
} from './store.ts'
export { PAGE_SCAN_BUDGET } from './store-checks.ts'
export {
  type PgClient,
  type PgQueryable,
  type PostgresStoreOptions,
  postgresStore,
} from './stores/postgres.ts'
export { type SqliteStoreOptions, sqliteStore } from './stores/sqlite.ts'
export { generateWebhookToken } from './token.ts'
export type { SchemaWarning } from './warnings.ts'
export type { EventRetryOptions, ProcessingOptions, WorkerClock } from './worker.ts'
