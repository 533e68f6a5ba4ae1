import { api } from '../api/client.ts'
import type { DemoInfo, FeedEvent, InboxSummary } from '../api/types.ts'
import type { Page } from '../context.ts'
import { h, icon, render } from '../dom.ts'
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
    const filters = h('div', { class: 'filters', role: 'group', 'aria-label': 'Show event types' })
    const list = h('ol', {
      class: 'event-list',
      'aria-label': 'Events, newest first',
      'aria-live': 'polite',
      'aria-relevant': 'additions',
    })
    const listSlot = h('div')
    const counter = h('span', { class: 'count' })
    const liveBadge = h('span', { class: 'live-pill' })
    const fresh = new Set<string>()

    const showConnection = (connected: boolean) => {
      liveBadge.className = `live-pill ${connected ? 'on' : ''}`
      liveBadge.textContent = connected ? 'Live' : 'Reconnecting…'
    }
    showConnection(live.connected)

    const showStatus = (info: DemoInfo) => {
      const w = info.webhooks
      const state = (s: { state: string; message?: string }) =>
        s.state === 'active'
          ? badge('Subscribed', 'success')
          : s.state === 'pending'
            ? badge('Subscribing…', 'info')
            : badge('Not subscribed', 'danger', s.message)
      render(
        status,
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
      )
    }
    showStatus(context.info)
    api.config().then(showStatus, () => {})

    // The inbox: its figures from the webhook inbox console's API, and the console itself.
    const inbox = h('div', { class: 'status-strip' })
    const showInbox = (summary: InboxSummary) => {
      const { counts } = summary
      render(
        inbox,
        ...(['pending', 'processing', 'done', 'dead'] as const).map((status) =>
          h(
            'div',
            { 'data-inbox-status': status },
            h('span', { class: 'muted' }, `${status} `),
            String(counts[status]),
          ),
        ),
        h(
          'div',
          null,
          h('a', { href: '/inbox/', target: '_blank', rel: 'noopener' }, 'Open the inbox console'),
        ),
      )
    }
    const refreshInbox = () => api.inboxSummary().then(showInbox, () => {})
    refreshInbox()

    const visible = (e: FeedEvent) =>
      !hidden.has(TYPES.some((t) => t.type === e.eventType) ? e.eventType : 'other')

    const renderFilters = () => {
      const counts = new Map<string, number>()
      for (const e of live.events) {
        const key = TYPES.some((t) => t.type === e.eventType) ? e.eventType : 'other'
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      const chips = [...TYPES, ...(counts.has('other') ? [{ type: 'other', label: 'Other' }] : [])].map(
        ({ type, label }) =>
          h(
            'button',
            {
              type: 'button',
              class: `chip chip-${type.toLowerCase()}`,
              'aria-pressed': String(!hidden.has(type)),
              onclick: () => {
                if (hidden.has(type)) hidden.delete(type)
                else hidden.add(type)
                renderFilters()
                renderList()
              },
            },
            h('span', { class: 'chip-check', 'aria-hidden': 'true' }, icon('check')),
            label,
            h('span', { class: 'chip-count' }, String(counts.get(type) ?? 0)),
          ),
      )
      render(
        filters,
        chips,
        hidden.size > 0
          ? h(
              'button',
              {
                type: 'button',
                class: 'btn btn-ghost btn-sm',
                onclick: () => {
                  hidden.clear()
                  renderFilters()
                  renderList()
                },
              },
              'Show all',
            )
          : null,
      )
    }

    const item = (e: FeedEvent) =>
      h(
        'li',
        {
          class: `event event-${e.kind}${fresh.has(e.key) ? ' event-new' : ''}`,
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

    const renderList = () => {
      const shown = live.events.filter(visible)
      counter.textContent = live.events.length === 0 ? '' : `${shown.length} of ${live.events.length} shown`
      if (live.events.length === 0) {
        render(
          listSlot,
          emptyState(
            'activity',
            'Waiting for events',
            h(
              'p',
              null,
              'Nothing has arrived yet. Upload a file on the ',
              h('a', { href: '#/upload' }, 'Upload page'),
              ': the service sends a folder callback and asset events, and they appear here within a moment.',
            ),
          ),
        )
        return
      }
      if (shown.length === 0) {
        render(
          listSlot,
          emptyState(
            'activity',
            'No events of the selected types',
            'Turn a type back on above, or Show all.',
          ),
        )
        return
      }
      render(list, shown.slice().reverse().map(item))
      if (listSlot.firstChild !== list) render(listSlot, list)
    }

    const stopFeed = live.onFeed((e) => {
      refreshInbox()
      fresh.add(e.key)
      renderFilters()
      if (!visible(e)) {
        renderList()
        return
      }
      if (listSlot.firstChild !== list) renderList()
      else {
        list.prepend(item(e))
        counter.textContent = `${live.events.filter(visible).length} of ${live.events.length} shown`
      }
    })
    const stopConnection = live.onConnection(showConnection)

    render(
      main,
      pageHeader('Events', eventsPage.description, liveBadge),
      card({ title: 'Webhook subscriptions' }, status),
      card({ title: 'Inbox' }, inbox),
      card({ title: 'Feed', subtitle: counter }, filters, listSlot),
    )
    renderFilters()
    renderList()
    return () => {
      stopFeed()
      stopConnection()
    }
  },
}
