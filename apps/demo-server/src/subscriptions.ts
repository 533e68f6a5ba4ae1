import type { AssetEventType } from '@service-sdk/core'
import { ASSET_EVENT_TYPES } from '@service-sdk/core/schemas'
import type { WebhookStatus } from '@service-sdk/demo-web/api'
import type { OpenClient } from '@service-sdk/open'
import { toHttpError } from './errors.ts'
import type { Log } from './log.ts'

/**
 * The demo's webhook subscriptions and what the page is told of them: every offered asset event
 * and the watched folders at start-up, then each folder the page picks (subscribed once).
 */
export class Subscriptions {
  readonly status: WebhookStatus = {
    receiverUrl: '',
    assetEvents: { state: 'pending', eventTypes: [] },
    folders: { state: 'pending', folderIds: [] },
  }
  readonly #open: OpenClient
  readonly #log: Log
  readonly #watching = new Map<string, Promise<void>>()
  #callbackUrl = ''

  constructor(open: OpenClient, log: Log) {
    this.#open = open
    this.#log = log
  }

  /** Whether the start-up subscriptions have settled, and how. */
  get state(): 'pending' | 'failed' | 'ok' {
    const { assetEvents, folders } = this.status
    if (assetEvents.state === 'pending' || folders.state === 'pending') return 'pending'
    return assetEvents.state === 'failed' || folders.state === 'failed' ? 'failed' : 'ok'
  }

  /** Subscribe a folder's content callbacks (once per folder; again after a failure). */
  watch = (folderId: string): Promise<void> => {
    let pending = this.#watching.get(folderId)
    if (!pending) {
      pending = this.#open.folders
        .subscribe({ folderIds: [folderId], callbackUrl: this.#callbackUrl })
        .then(() => {
          const folderIds = [...new Set([...this.status.folders.folderIds, folderId])]
          this.status.folders = { state: 'active', folderIds }
          this.#log.info(`webhooks: watching folder ${folderId}`)
        })
      this.#watching.set(folderId, pending)
      pending.catch(() => this.#watching.delete(folderId))
    }
    return pending
  }

  /**
   * Start-up, once the receiver's URL is known (`maskedUrl` is what the page shows): every offered
   * asset event and the folders given. Resolves when both have settled (succeeded or failed).
   */
  start(callbackUrl: string, maskedUrl: string, folderIds: readonly string[]): Promise<void> {
    this.#callbackUrl = callbackUrl
    this.status.receiverUrl = maskedUrl
    const settled = Promise.all([this.#assetEvents(), this.#folders([...folderIds])]).then(() => {})
    // Folders subscribed at start-up are not subscribed again when the page picks them.
    const initial = settled.then(() => {
      if (this.status.folders.state !== 'active') throw new Error('the start-up folder subscription failed')
    })
    initial.catch(() => {
      for (const id of folderIds) this.#watching.delete(id)
    })
    for (const id of folderIds) this.#watching.set(id, initial)
    return settled
  }

  async #assetEvents(): Promise<void> {
    try {
      // The codes on offer that this SDK knows how to subscribe (a newer code would be refused).
      const known = new Set<string>(ASSET_EVENT_TYPES)
      const offered = (await this.#open.events.types())
        .map((t) => t.code)
        .filter((code): code is AssetEventType => known.has(code))
      if (offered.length === 0) throw new Error('The service offers no asset events.')
      await this.#open.events.subscribe({ callbackUrl: this.#callbackUrl, eventTypes: offered })
      this.status.assetEvents = { state: 'active', eventTypes: offered }
      this.#log.info(`webhooks: subscribed to ${offered.length} asset event types`)
    } catch (error) {
      this.status.assetEvents = {
        state: 'failed',
        eventTypes: [],
        message: toHttpError(error).body.error.message,
      }
      this.#log.warn('webhooks: could not subscribe to asset events', error)
    }
  }

  async #folders(folderIds: string[]): Promise<void> {
    if (folderIds.length === 0) {
      this.status.folders = { state: 'active', folderIds: [...this.status.folders.folderIds] }
      return
    }
    try {
      await this.#open.folders.subscribe({ folderIds, callbackUrl: this.#callbackUrl })
      this.status.folders = {
        state: 'active',
        folderIds: [...new Set([...this.status.folders.folderIds, ...folderIds])],
      }
      this.#log.info(`webhooks: watching ${folderIds.length} folder(s)`)
    } catch (error) {
      this.status.folders = { state: 'failed', folderIds: [], message: toHttpError(error).body.error.message }
      this.#log.warn('webhooks: could not subscribe to folder callbacks', error)
    }
  }
}
