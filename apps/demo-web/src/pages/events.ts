import { api } from '../api/client.ts'
import type { DemoInfo, FeedEvent, InboxSummary } from '../api/types.ts'
import type { Page } from '../context.ts'
import { type Child, h, icon, render } from '../dom.ts'
import { formatDateTime, formatRelative, formatTime } from '../format.ts'
import { badge, card, emptyState, pageHeader } from '../ui.ts'

/** The event types the service sends, in the order a person thinks about them. */
const TYPES: { type: string; label: string }[] = [
  { type: 'FOLDER_CONTENT_UPDATE', label: 'Folder content' },
  { type: 'MATERIAL_INBOUND_COMPLETED', label: 'Intake completed' },
  { type: 'MATERIAL_ADDED_TO_FOLDER', label: 'Added to folder' },
  { type: 'MATERIAL_METADATA_UPDATED', label: 'Metadata updated' },
  { type: 'MATERIAL_VERSION_CHANGED', label: 'Version changed' },
  { type: 'MATERIAL_DELETED', label: 'Deleted' },
]

const labelOf = (type: string) => TYPES.find((t) => t.type === type)?.label ?? type

/** Filters survive leaving the page and coming back. */
const hidden = new Set<string>()

export const eventsPage: Page = {
  path: '/events',
  title: 'Events',
  label: 'Events',
  icon: 'activity',
  description:
    'Folder-content callbacks and asset events as the webhook receiver handles them: stored first (SQLite inbox), acknowledged, processed, then pushed here live.',
  mount(main, context) {
    const { live } = context
    const status = h('div', { class: 'status-strip' })
    const showStatus = (info: DemoInfo) => render(status, subscriptionStatus(info))
    showStatus(context.info)
    api.config().then(showStatus, () => {})
    // The inbox: its figures from the webhook inbox console's API, and the console itself.
    const inbox = h('div', { class: 'status-strip' })
    const refreshInbox = () =>
      api.inboxSummary().then(
        (summary) => render(inbox, inboxFigures(summary)),
        () => {},
      )
    refreshInbox()
    const liveBadge = h('span', { class: 'live-pill' })
    const showConnection = (connected: boolean) => {
      liveBadge.className = `live-pill ${connected ? 'on' : ''}`
      liveBadge.textContent = connected ? 'Live' : 'Reconnecting…'
    }
    showConnection(live.connected)
    const feed = new FeedView(live.events)
    const stopFeed = live.onFeed((e) => {
      refreshInbox()
      feed.add(e)
    })
    const stopConnection = live.onConnection(showConnection)
    render(
      main,
      pageHeader('Events', eventsPage.description, liveBadge),
      card({ title: 'Webhook subscriptions' }, status),
      card({ title: 'Inbox' }, inbox),
      card({ title: 'Feed', subtitle: feed.counter }, feed.filters, feed.slot),
    )
    feed.renderFilters()
    feed.renderList()
    return () => {
      stopFeed()
      stopConnection()
    }
  },
}

/** The receiver's URL and the state of the asset-event and folder subscriptions. */
function subscriptionStatus(info: DemoInfo): Child[] {
  const w = info.webhooks
  const state = (s: { state: string; message?: string }) =>
    s.state === 'active'
      ? badge('Subscribed', 'success')
      : s.state === 'pending'
        ? badge('Subscribing…', 'info')
        : badge('Not subscribed', 'danger', s.message)
  return [
    h('div', null, h('span', { class: 'muted' }, 'Receiver '), h('code', null, w.receiverUrl)),
    h(
      'div',
      null,
      h('span', { class: 'muted' }, 'Asset events '),
      state(w.assetEvents),
      w.assetEvents.message ? h('span', { class: 'status-error' }, ` ${w.assetEvents.message}`) : null,
    ),
    h(
      'div',
      null,
      h('span', { class: 'muted' }, 'Folder callbacks '),
      state(w.folders),
      ` ${w.folders.folderIds.length} folders`,
      w.folders.message ? h('span', { class: 'status-error' }, ` ${w.folders.message}`) : null,
    ),
  ]
}

/** The inbox's events by status, and the link to its console. */
function inboxFigures({ counts }: InboxSummary): Child[] {
  return [
    ...(['pending', 'processing', 'done', 'dead'] as const).map((status) =>
      h(
        'div',
        { 'data-inbox-status': status },
        h('span', { class: 'muted' }, `${status} `),
        String(counts[status]),
      ),
    ),
    h('div', null, h('a', { href: '/inbox/', target: '_blank', rel: 'noopener' }, 'Open the inbox console')),
  ]
}

/** The type a filter chip stands for: a known type, or `other`. */
const filterKey = (type: string) => (TYPES.some((t) => t.type === type) ? type : 'other')

/** The feed: filter chips by type (with counts), the list newest first, and how many are shown. */
class FeedView {
  readonly filters = h('div', { class: 'filters', role: 'group', 'aria-label': 'Show event types' })
  readonly slot = h('div')
  readonly counter = h('span', { class: 'count' })
  readonly #list = h('ol', {
    class: 'event-list',
    'aria-label': 'Events, newest first',
    'aria-live': 'polite',
    'aria-relevant': 'additions',
  })
  /** Keys of events that arrived while the page was shown (highlighted). */
  readonly #fresh = new Set<string>()
  readonly #events: readonly FeedEvent[]

  constructor(events: readonly FeedEvent[]) {
    this.#events = events
  }

  add(e: FeedEvent): void {
    this.#fresh.add(e.key)
    this.renderFilters()
    if (!visible(e) || this.slot.firstChild !== this.#list) {
      this.renderList()
      return
    }
    this.#list.prepend(eventItem(e, true))
    this.counter.textContent = `${this.#events.filter(visible).length} of ${this.#events.length} shown`
  }

  renderFilters(): void {
    const counts = new Map<string, number>()
    for (const e of this.#events)
      counts.set(filterKey(e.eventType), (counts.get(filterKey(e.eventType)) ?? 0) + 1)
    const toggle = (type: string) => {
      if (hidden.has(type)) hidden.delete(type)
      else hidden.add(type)
      this.#rerender()
    }
    const types = [...TYPES, ...(counts.has('other') ? [{ type: 'other', label: 'Other' }] : [])]
    const chips = types.map(({ type, label }) =>
      filterChip(type, label, counts.get(type) ?? 0, () => toggle(type)),
    )
    const showAll = () => {
      hidden.clear()
      this.#rerender()
    }
    render(
      this.filters,
      chips,
      hidden.size > 0
        ? h('button', { type: 'button', class: 'btn btn-ghost btn-sm', onclick: showAll }, 'Show all')
        : null,
    )
  }

  renderList(): void {
    const events = this.#events
    const shown = events.filter(visible)
    this.counter.textContent = events.length === 0 ? '' : `${shown.length} of ${events.length} shown`
    if (events.length === 0) render(this.slot, waitingForEvents())
    else if (shown.length === 0) {
      const none = 'No events of the selected types'
      render(this.slot, emptyState('activity', none, 'Turn a type back on above, or Show all.'))
    } else {
      render(
        this.#list,
        [...shown].reverse().map((e) => eventItem(e, this.#fresh.has(e.key))),
      )
      if (this.slot.firstChild !== this.#list) render(this.slot, this.#list)
    }
  }

  #rerender(): void {
    this.renderFilters()
    this.renderList()
  }
}

const visible = (e: FeedEvent) => !hidden.has(filterKey(e.eventType))

function filterChip(type: string, label: string, count: number, onclick: () => void): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: `chip chip-${type.toLowerCase()}`,
      'aria-pressed': String(!hidden.has(type)),
      onclick,
    },
    h('span', { class: 'chip-check', 'aria-hidden': 'true' }, icon('check')),
    label,
    h('span', { class: 'chip-count' }, String(count)),
  )
}

function waitingForEvents(): HTMLElement {
  return emptyState(
    'activity',
    'Waiting for events',
    h(
      'p',
      null,
      'Nothing has arrived yet. Upload a file on the ',
      h('a', { href: '#/upload' }, 'Upload page'),
      ': the service sends a folder callback and asset events, and they appear here within a moment.',
    ),
  )
}

/** One event: its type, summary and time; opened, its facts and its JSON. */
function eventItem(e: FeedEvent, fresh: boolean): HTMLLIElement {
  return h(
    'li',
    {
      class: `event event-${e.kind}${fresh ? ' event-new' : ''}`,
      'data-event-type': e.eventType,
    },
    h(
      'details',
      null,
      h(
        'summary',
        null,
        h('span', { class: `type-tag type-${e.eventType.toLowerCase()}` }, labelOf(e.eventType)),
        h('span', { class: 'event-summary' }, e.summary),
        h(
          'time',
          {
            class: 'event-time',
            datetime: new Date(e.handledAt).toISOString(),
            title: `Handled ${formatDateTime(e.handledAt)}`,
          },
          formatTime(e.handledAt),
        ),
      ),
      h(
        'div',
        { class: 'event-detail' },
        h(
          'dl',
          { class: 'facts facts-inline' },
          h('dt', null, 'Type'),
          h('dd', null, h('code', null, e.eventType)),
          h('dt', null, 'Key'),
          h('dd', null, h('code', null, e.key)),
          e.eventTimeMs !== null
            ? [
                h('dt', null, 'Event time'),
                h('dd', null, `${formatDateTime(e.eventTimeMs)} (${formatRelative(e.eventTimeMs)})`),
              ]
            : null,
          h('dt', null, 'Received'),
          h('dd', null, formatDateTime(e.receivedAt)),
        ),
        h(
          'pre',
          { class: 'json', tabindex: 0, 'aria-label': `JSON of the ${labelOf(e.eventType)} event` },
          JSON.stringify(e.event, null, 2),
        ),
      ),
    ),
  )
}
