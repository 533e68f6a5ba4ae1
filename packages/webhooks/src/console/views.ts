import type { SchemaWarning } from '../events/warnings.ts'
import type { EventPage, EventStatus, StoredEvent } from '../stores/store.ts'
import { EVENT_STATUSES } from '../stores/store.ts'
import { PAGE_SCAN_BUDGET } from '../stores/store-checks.ts'
import { asciiJson, type Html, html, readable } from './html.ts'
import type { ConsoleSettings } from './options.ts'
import { prettyJson } from './pretty-json.ts'
import { eventUrl, type ListFilters, listUrl } from './queries.ts'

/** The figures at the top of every page. */
export interface InboxSummary {
  counts: Record<EventStatus, number>
  /** When the oldest pending event was received (epoch ms); null when none is pending. */
  oldestPendingAt: number | null
  /** How long it has waited (ms); null when none is pending. */
  oldestPendingAgeMs: number | null
}

/** A time as the pages show it: UTC, to the second, machine-readable in `datetime`. */
function time(ms: number | null): Html {
  if (ms === null) return html`<span class="none">–</span>`
  const iso = new Date(ms).toISOString()
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')}</time>`
}

/** A duration for people: 45 s, 12 min, 3 h 5 min, 2 d 4 h. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h ${m % 60} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

function layout(s: ConsoleSettings, title: string, summary: InboxSummary, main: Html): Html {
  const base = s.basePath
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${s.title}</title>
<link rel="stylesheet" href="${base}/assets/console.css">
<script src="${base}/assets/console.js" defer></script>
</head>
<body data-base="${base}">
<header class="top">
<p class="brand"><a href="${base}/">${s.title}</a></p>
${counts(s, summary)}
</header>
<main id="main">
${main}
<p id="status" class="status" role="status" aria-live="polite"></p>
</main>
</body>
</html>
`
}

function counts(s: ConsoleSettings, summary: InboxSummary): Html {
  const item = (status: EventStatus) =>
    html`<div class="count count-${status}"><dt><a href="${listUrl(s.basePath, { status, order: 'newest' })}">${status}</a></dt><dd>${summary.counts[status].toLocaleString('en')}</dd></div>`
  return html`<dl class="counts" aria-label="Events by status">
${EVENT_STATUSES.map(item)}
<div class="count count-age"><dt>oldest pending</dt><dd>${summary.oldestPendingAgeMs === null ? 'none' : age(summary.oldestPendingAgeMs)}</dd></div>
</dl>`
}

function filterForm(s: ConsoleSettings, f: ListFilters): Html {
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`
  const from = f.from === undefined ? '' : new Date(f.from).toISOString().slice(0, 19)
  return html`<form class="filters" method="get" action="${s.basePath}/" aria-label="Filter events">
<label>Status <select name="status">${option('', 'any', f.status === undefined)}${EVENT_STATUSES.map((st) => option(st, st, f.status === st))}</select></label>
<label>Type <input name="type" value="${f.eventType ?? ''}" placeholder="MATERIAL_DELETED" spellcheck="false"></label>
<label>Order key <input name="key" value="${f.orderKey ?? ''}" spellcheck="false"></label>
<label>From (UTC) <input name="from" type="datetime-local" step="1" value="${from}"></label>
<label>Order <select name="order">${option('newest', 'newest first', f.order === 'newest')}${option('oldest', 'oldest first', f.order === 'oldest')}</select></label>
<button type="submit">Show</button>
</form>`
}

function row(s: ConsoleSettings, e: StoredEvent): Html {
  const key = readable(e.key, 64)
  return html`<tr>
<td class="pick-cell"><input type="checkbox" class="pick" data-key="${asciiJson(e.key)}" data-status="${e.status}" aria-label="Select ${key}"></td>
<td class="key" data-label="Key"><a href="${eventUrl(s.basePath, e.key)}">${key}</a></td>
<td data-label="Type">${readable(e.eventType, 48)}</td>
<td data-label="Status"><span class="badge badge-${e.status}">${e.status}</span></td>
<td class="num" data-label="Attempts">${e.attempts}</td>
<td data-label="Received">${time(e.receivedAt)}</td>
<td class="error" data-label="Last error">${e.lastError === null ? '' : readable(e.lastError, 160)}</td>
</tr>`
}

function caption(f: ListFilters): string {
  const what = [
    f.status ? `${f.status} events` : 'Events',
    f.eventType === undefined ? '' : ` of type ${readable(f.eventType, 48)}`,
    f.orderKey === undefined ? '' : ` with order key ${readable(f.orderKey, 48)}`,
  ].join('')
  return `${what}, ${f.order} first${f.from === undefined ? '' : ` from ${new Date(f.from).toISOString()}`}`
}

/** The list: counts, filters, one page of events, actions on a selection, paging, prune. */
export function listPage(s: ConsoleSettings, summary: InboxSummary, f: ListFilters, page: EventPage): Html {
  const { cursor: _cursor, ...unpaged } = f
  const first = listUrl(s.basePath, unpaged)
  const empty = page.events.length === 0
  const main = html`<h1>${caption(f)}</h1>
${filterForm(s, f)}
${
  empty
    ? html`<p class="empty">${page.partial ? 'None among the events searched so far.' : 'No events here.'}</p>`
    : html`<div class="scroll" role="region" aria-label="Events" tabindex="0">
<table>
<caption class="visually-hidden">${caption(f)}: ${page.events.length} shown</caption>
<thead><tr><th scope="col"><input type="checkbox" id="pick-all" aria-label="Select every event on this page"></th><th scope="col">Key</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Received (UTC)</th><th scope="col">Last error</th></tr></thead>
<tbody>
${page.events.map((e) => row(s, e))}
</tbody>
</table>
</div>`
}
<div class="actions" role="group" aria-label="Act on the selected events">
<button type="button" data-action="requeue">Requeue selected dead events</button>
<button type="button" data-action="replay">Replay selected done events</button>
<button type="button" data-action="requeue-all">Requeue every dead event</button>
</div>
<nav class="pages" aria-label="Pages">
${f.cursor === undefined ? '' : html`<a href="${first}">First page</a>`}
${page.next === undefined ? '' : html`<a rel="next" href="${listUrl(s.basePath, f, page.next)}">${page.partial ? 'Search further' : 'Next page'}</a>`}
${page.partial ? html`<span class="note">This page searched ${PAGE_SCAN_BUDGET.toLocaleString('en')} events; the next one searches further.</span>` : ''}
</nav>
<form class="prune" id="prune" aria-labelledby="prune-title">
<h2 id="prune-title">Prune</h2>
<label>Delete <select name="status">${html`<option value="done">done</option><option value="dead">dead</option>`}</select> events finished more than <input name="days" type="number" min="0" step="any" value="7" required> days ago</label>
<button type="submit">Prune</button>
</form>`
  return layout(s, caption(f), summary, main)
}

/** One event: its facts, last error, schema warnings, body (every digit as sent), actions. */
export function eventPage(
  s: ConsoleSettings,
  summary: InboxSummary,
  e: StoredEvent,
  warnings: readonly SchemaWarning[],
): Html {
  const fact = (term: string, value: Html | string | number) => html`<dt>${term}</dt><dd>${value}</dd>`
  const main = html`<p><a href="${s.basePath}/">← All events</a></p>
<h1>Event <code>${readable(e.key, 200)}</code></h1>
<dl class="facts">
${fact('Type', readable(e.eventType))}
${fact('Status', html`<span class="badge badge-${e.status}">${e.status}</span>`)}
${fact('Attempts', e.attempts)}
${fact('Order key', e.orderKey === null ? '–' : readable(e.orderKey))}
${fact('Received (UTC)', time(e.receivedAt))}
${fact(e.status === 'pending' ? 'Next attempt (UTC)' : 'Last due (UTC)', time(e.nextAttemptAt))}
${fact('Finished (UTC)', time(e.finishedAt))}
${fact('Lease until (UTC)', time(e.leaseUntil))}
</dl>
<div class="actions" role="group" aria-label="Act on this event">
${e.status === 'dead' ? html`<button type="button" data-action="requeue" data-key="${asciiJson(e.key)}">Requeue</button>` : ''}
${e.status === 'done' ? html`<button type="button" data-action="replay" data-key="${asciiJson(e.key)}">Replay</button>` : ''}
</div>
<h2>Last error</h2>
${e.lastError === null ? html`<p>None.</p>` : html`<pre class="error-text">${readable(e.lastError)}</pre>`}
<h2>Schema warnings</h2>
${
  warnings.length === 0
    ? html`<p>None: the body is what this SDK knows.</p>`
    : html`<ul>${warnings.map((w) => html`<li><code>${w.path}</code>: ${w.message} (${w.value === undefined ? 'absent' : html`sent: <code>${JSON.stringify(w.value)}</code>`})</li>`)}</ul>`
}
<h2 id="body-title">Body</h2>
<pre class="body" tabindex="0" aria-labelledby="body-title">${prettyJson(e.body)}</pre>`
  return layout(s, `Event ${readable(e.key, 40)}`, summary, main)
}
