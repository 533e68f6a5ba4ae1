import type { Logger } from '@service-sdk/core'
import { type OriginAllowed, originCheck } from '@service-sdk/core/internal'
import { OptionIssues } from '../option-checks.ts'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import type { WebhookStore } from '../stores/store.ts'
import { MAX_PAGE_LIMIT } from '../stores/store-checks.ts'

/**
 * Whether a request may see the console: `true` serves it, `false` answers 401, a `Response`
 * is answered as it is (a redirect to your sign-in page). Called for every request, before
 * anything is read. A function that throws refuses (500, logged).
 */
export type ConsoleAuthorize = (request: Request) => boolean | Response | Promise<boolean | Response>

export interface InboxConsoleOptions {
  /** The inbox to show: a receiver (its requeues wake its worker at once) ... */
  receiver?: WebhookReceiver
  /** ... or a store (`sqliteStore`, `postgresStore`: workers elsewhere pick requeued events up). */
  store?: WebhookStore
  /**
   * Required: who may see and act. There is no default: a console without it is refused at
   * creation, so none is ever open by mistake.
   */
  authorize: ConsoleAuthorize
  /** The path it is mounted at; every URL it serves starts with it. Default `/inbox`. */
  basePath?: string
  /**
   * Strings no answer may show (the webhook tokens, a password): scrubbed from every page and
   * answer. The receiver's own token is already removed from stored errors.
   */
  secrets?: readonly string[]
  /**
   * Page origins besides the console's own that may post its actions (an admin app on another
   * host). Default: none.
   */
  allowedOrigins?: readonly string[] | OriginAllowed
  /** Events per page. Default 50, at most 1,000. */
  pageSize?: number
  /** The page's heading. Default `Webhook inbox`. */
  title?: string
  /** Where a failed `authorize` or store is logged (console, pino). Default: silent. */
  logger?: Partial<Logger>
}

/** The options checked, with their defaults. */
export interface ConsoleSettings {
  store: WebhookStore
  receiver: WebhookReceiver | undefined
  authorize: ConsoleAuthorize
  basePath: string
  secrets: readonly string[]
  allowed: OriginAllowed
  pageSize: number
  title: string
}

export function consoleSettings(options: InboxConsoleOptions): ConsoleSettings {
  const issues = new OptionIssues('createInboxConsole options')
  if (!issues.object('options', options) || options === undefined) {
    issues.add('authorize', 'required: a function deciding who may see the inbox (there is no default)')
    issues.throwIfAny()
  }
  const { receiver, authorize, basePath = '/inbox', pageSize, title, secrets, allowedOrigins } = options
  const store = options.store ?? receiver?.store
  if (typeof authorize !== 'function')
    issues.add('authorize', 'required: a function deciding who may see the inbox (there is no default)')
  if (options.store !== undefined && receiver !== undefined)
    issues.add('store', 'give a receiver or a store, not both')
  if (typeof store?.page !== 'function' || typeof store.oldestPending !== 'function')
    issues.add(
      options.store ? 'store' : 'receiver',
      'required: a receiver or a store with page() and oldestPending() (sqliteStore, postgresStore)',
    )
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    issues.add('basePath', 'must be a path like /inbox or /admin/webhooks (no trailing slash), or ""')
  issues.number('pageSize', pageSize, { integer: true, min: 1, max: MAX_PAGE_LIMIT })
  if (title !== undefined && typeof title !== 'string') issues.add('title', 'must be a string')
  issues.strings('secrets', secrets)
  if (typeof allowedOrigins !== 'function') issues.strings('allowedOrigins', allowedOrigins)
  issues.throwIfAny()
  return {
    store: store as WebhookStore,
    receiver,
    authorize,
    basePath,
    secrets: secrets ?? [],
    allowed: originCheck(allowedOrigins),
    pageSize: pageSize ?? 50,
    title: title ?? 'Webhook inbox',
  }
}
