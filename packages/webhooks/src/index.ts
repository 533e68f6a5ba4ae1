export type { RetryOptions } from './backoff.ts'
export { DEFAULT_MAX_BODY_BYTES } from './body.ts'
export { MAX_JSON_DEPTH } from './decode.ts'
export { WebhookError, type WebhookErrorCode, WebhookHandlerError } from './errors.ts'
export type {
  AssetWebhookEvent,
  EventTimeFields,
  FolderContentEvent,
  KnownEventType,
  KnownWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from './events.ts'
export { isKnownEvent, parseWebhook } from './parse.ts'
export {
  createWebhookReceiver,
  type Delivery,
  type HandlerContext,
  type Receipt,
  type WebhookHandler,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.ts'
export type {
  ClaimedEvent,
  ClaimOptions,
  EventStatus,
  ListOptions,
  NewEvent,
  PruneOptions,
  RequeueOptions,
  Settlement,
  StoredEvent,
  WebhookStore,
} from './store.ts'
export { type PgQueryable, type PostgresStoreOptions, postgresStore } from './stores/postgres.ts'
export { type SqliteStoreOptions, sqliteStore } from './stores/sqlite.ts'
export { generateWebhookToken } from './token.ts'
export type { ProcessingOptions } from './worker.ts'
