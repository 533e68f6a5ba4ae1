import type { FolderChoice } from '@service-sdk/selector'
import { parse } from '../api/client.ts'
import type { DemoInfo, SavedAsset, UploadResponse, UploadUpdate } from '../api/types.ts'
import { announce, h, icon, render } from '../dom.ts'
import { formatBytes, formatEta, formatRate } from '../format.ts'
import { apiError, badge, button, emptyState } from '../ui.ts'

/** Files going up through the server at once (each holds a connection; the browser allows 6). */
const CONCURRENCY = 3

interface Item {
  id: string
  file: File
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  update: UploadUpdate | undefined
  asset?: SavedAsset
  error?: string
  controller: AbortController
  row: HTMLElement
}

/**
 * Flow 2's uploads: each file streams to the demo's server (`POST /api/uploads`), a few at once;
 * progress comes back on the live stream; each can be paused, resumed, cancelled or retried.
 */
export class UploadQueue {
  readonly slot: HTMLElement
  readonly #list = h('ul', { class: 'upload-list', 'aria-label': 'Uploads' })
  readonly #empty = emptyState(
    'upload',
    'Nothing uploaded yet',
    'Choose a folder and files, then Upload. Each file streams to the server, which uploads it with open.upload and saves the asset.',
  )
  readonly #items: Item[] = []
  readonly #clientId: string
  /** The folder chosen now: a file goes there when its turn comes (a retried one too). */
  readonly #target: () => FolderChoice | undefined
  #active = 0

  constructor(clientId: string, target: () => FolderChoice | undefined) {
    this.#clientId = clientId
    this.#target = target
    this.slot = h('div', null, this.#empty)
  }

  /** Progress of one of this page's uploads, from the live stream. */
  update(update: UploadUpdate): void {
    const item = this.#items.find((i) => i.id === update.id)
    if (item?.state !== 'running') return
    item.update = update
    this.#paint(item)
  }

  /** Queue files; those the server would refuse (empty, too large) fail at once. */
  add(files: readonly File[], info: DemoInfo): void {
    for (const file of files) {
      const item: Item = {
        id: crypto.randomUUID(),
        file,
        state: 'queued',
        update: undefined,
        controller: new AbortController(),
        row: h('li', { class: 'upload-item' }),
      }
      if (file.size === 0) {
        item.state = 'failed'
        item.error = 'The file is empty: there is nothing to upload.'
      } else if (file.size > info.maxUploadBytes) {
        item.state = 'failed'
        item.error = `Larger than this server accepts (${formatBytes(info.maxUploadBytes)}).`
      }
      this.#items.push(item)
      if (this.slot.firstChild !== this.#list) render(this.slot, this.#list)
      this.#list.appendChild(item.row)
      this.#paint(item)
    }
    this.#pump()
  }

  clearFinished(): void {
    for (const item of [...this.#items]) {
      if (item.state === 'queued' || item.state === 'running') continue
      item.row.remove()
      this.#items.splice(this.#items.indexOf(item), 1)
    }
    if (this.#items.length === 0) render(this.slot, this.#empty)
  }

  cancelAll(): void {
    for (const item of this.#items)
      if (item.state === 'queued' || item.state === 'running') this.#cancel(item)
  }

  #pump(): void {
    while (this.#active < CONCURRENCY) {
      const next = this.#items.find((i) => i.state === 'queued')
      const target = this.#target()
      if (!next || !target) return
      this.#active++
      void this.#send(next, target).finally(() => {
        this.#active--
        this.#pump()
      })
    }
  }

  async #send(item: Item, target: FolderChoice): Promise<void> {
    item.state = 'running'
    this.#paint(item)
    const query = new URLSearchParams({
      name: item.file.name,
      folderId: target.folderId,
      // The personal space may come without an orgId: then none is sent.
      ...(target.orgId !== null && { orgId: target.orgId }),
    })
    try {
      const response = await fetch(`/api/uploads?${query}`, {
        method: 'POST',
        body: item.file,
        headers: {
          'content-type': 'application/octet-stream',
          'x-upload-id': item.id,
          'x-demo-client': this.#clientId,
        },
        signal: item.controller.signal,
      })
      const { asset } = await parse<UploadResponse>(response)
      item.state = 'done'
      item.asset = asset
      announce(`${item.file.name} saved.`, 'success')
    } catch (error) {
      if (item.controller.signal.aborted) item.state = 'cancelled'
      else {
        const e = apiError(error)
        item.state = e.code === 'cancelled' ? 'cancelled' : 'failed'
        item.error =
          e.code === 'network' || e.status === 0 ? 'The connection to the server was lost.' : e.message
      }
    }
    this.#paint(item)
  }

  #cancel(item: Item): void {
    if (item.state === 'queued') {
      item.state = 'cancelled'
      this.#paint(item)
      return
    }
    if (item.state !== 'running') return
    // Tell the server first (it aborts the upload and its multipart upload), then stop sending.
    void fetch(`/api/uploads/${encodeURIComponent(item.id)}`, {
      method: 'DELETE',
      headers: { 'x-demo-client': this.#clientId },
    }).catch(() => {})
    item.controller.abort()
  }

  /** Pause or resume on the server: parts sending finish, no new one starts. */
  #setPaused(item: Item, paused: boolean): void {
    void fetch(`/api/uploads/${encodeURIComponent(item.id)}/${paused ? 'pause' : 'resume'}`, {
      method: 'POST',
      headers: { 'x-demo-client': this.#clientId },
    }).catch(() => {})
  }

  /** A failed or cancelled file goes back in the queue: the page sends it again (a new upload). */
  #retry(item: Item): void {
    item.id = crypto.randomUUID()
    item.controller = new AbortController()
    item.state = 'queued'
    item.update = undefined
    delete item.error
    this.#paint(item)
    this.#pump()
  }

  #paint(item: Item): void {
    paintItem(item, {
      pause: (paused) => this.#setPaused(item, paused),
      cancel: () => this.#cancel(item),
      retry: () => this.#retry(item),
    })
  }
}

interface ItemActions {
  pause(paused: boolean): void
  cancel(): void
  retry(): void
}

/** One file's row: name and size, progress, status in words, and what can be done with it now. */
function paintItem(item: Item, actions: ItemActions): void {
  const update = item.update
  const total = update?.total ?? item.file.size
  const loaded = item.state === 'done' ? total : Math.min(update?.loaded ?? 0, total)
  const percent = total > 0 ? Math.floor((loaded / total) * 100) : 0
  const tone = TONES[item.state]
  const progress = h('progress', {
    class: `progress progress-${tone}`,
    max: 100,
    value: item.state === 'done' ? 100 : percent,
    'aria-label': `Upload progress of ${item.file.name}`,
  })
  // Before the bytes flow, progress is indeterminate.
  const starting =
    update?.phase === undefined || update.phase === 'receiving' || update.phase === 'credentials'
  if (item.state === 'running' && starting) progress.removeAttribute('value')
  render(
    item.row,
    h('div', { class: 'upload-icon' }, icon('file')),
    h(
      'div',
      { class: 'upload-main' },
      h(
        'div',
        { class: 'upload-line' },
        h('span', { class: 'file-name', title: item.file.name }, item.file.name),
        h('span', { class: 'muted' }, formatBytes(item.file.size)),
      ),
      progress,
      h(
        'div',
        { class: `upload-status status-${tone}`, 'aria-live': item.state === 'running' ? 'off' : 'polite' },
        statusText(item, percent, loaded, total),
      ),
    ),
    h('div', { class: 'upload-actions' }, itemButtons(item, actions)),
  )
  item.row.dataset.state = item.state
}

const TONES: Record<Item['state'], 'success' | 'danger' | 'warning' | 'info'> = {
  done: 'success',
  failed: 'danger',
  cancelled: 'warning',
  queued: 'info',
  running: 'info',
}

function statusText(item: Item, percent: number, loaded: number, total: number): string {
  const update = item.update
  switch (item.state) {
    case 'queued':
      return 'Waiting…'
    case 'done':
      return `Saved · ${formatBytes(item.asset?.size ?? total)}`
    case 'cancelled':
      return 'Cancelled'
    case 'failed':
      return item.error ?? 'Failed'
  }
  switch (update?.phase) {
    case undefined:
    case 'receiving':
      return 'Starting…'
    case 'credentials':
      return 'Getting upload credentials…'
    case 'uploading':
      if (update.paused) return `Paused at ${percent}% · ${formatBytes(loaded)} of ${formatBytes(total)}`
      return [
        `Uploading ${percent}%`,
        `${formatBytes(loaded)} of ${formatBytes(total)}`,
        update.rate ? formatRate(update.rate) : undefined,
        update.etaMs !== null && update.etaMs !== undefined ? formatEta(update.etaMs) : undefined,
      ]
        .filter(Boolean)
        .join(' · ')
    case 'saving':
      return 'Saving the asset…'
    default:
      return 'Finishing…'
  }
}

function itemButtons(item: Item, actions: ItemActions): Array<HTMLElement | null> {
  const name = item.file.name
  const { state, update } = item
  const small = { small: true } as const
  return [
    state === 'done' && item.asset
      ? h(
          'a',
          {
            class: 'btn btn-secondary btn-sm',
            href: item.asset.accessUrl,
            target: '_blank',
            rel: 'noopener noreferrer',
          },
          icon('external'),
          'Open asset',
        )
      : null,
    state === 'running' && update?.phase === 'uploading'
      ? update.paused
        ? button('Resume', () => actions.pause(false), {
            ...small,
            variant: 'secondary',
            ariaLabel: `Resume ${name}`,
          })
        : button('Pause', () => actions.pause(true), {
            ...small,
            variant: 'ghost',
            ariaLabel: `Pause ${name}`,
          })
      : null,
    state === 'failed' || state === 'cancelled'
      ? button('Retry', actions.retry, { ...small, variant: 'secondary', ariaLabel: `Retry ${name}` })
      : null,
    state === 'queued' || state === 'running'
      ? button([icon('x'), 'Cancel'], actions.cancel, {
          ...small,
          variant: 'ghost',
          ariaLabel: `Cancel ${name}`,
        })
      : null,
    state === 'done' ? badge('Saved', 'success') : null,
  ]
}
