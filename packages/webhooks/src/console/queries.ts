import { ServiceValidationError } from '@service-sdk/core'
import { EVENT_STATUSES, type EventStatus, type PageQuery } from '../stores/store.ts'
import { checkPage } from '../stores/store-checks.ts'
import { asciiJson } from './html.ts'

/** The list's filters as the page's form and the API name them (`?status=dead&type=…&key=…`). */
export interface ListFilters {
  status?: EventStatus
  eventType?: string
  orderKey?: string
  order: 'newest' | 'oldest'
  /** Epoch ms; see `PageQuery.from`. */
  from?: number
  cursor?: string
}

/**
 * The list's query from a URL: empty fields are absent; `from` is epoch milliseconds, or a date
 * and time in UTC (`2025-07-31T08:30`, what a `datetime-local` field sends, or full ISO 8601).
 * A value that cannot be meant is a `ServiceValidationError` (answered 400).
 */
export function filtersOf(params: URLSearchParams): ListFilters {
  const get = (name: string) => {
    const value = params.get(name)
    return value === null || value === '' ? undefined : value
  }
  const status = get('status')
  const from = get('from')
  const filters: ListFilters = {
    order: get('order') === 'oldest' ? 'oldest' : 'newest',
    ...(status === undefined ? {} : { status: status as EventStatus }),
    ...optional('eventType', get('type')),
    ...optional('orderKey', get('key')),
    ...optional('cursor', get('cursor')),
    ...(from === undefined ? {} : { from: timeOf(from) }),
  }
  if (status !== undefined && !EVENT_STATUSES.includes(status as EventStatus))
    throw new ServiceValidationError('inbox filters', [
      { path: 'status', message: `must be one of ${EVENT_STATUSES.join(', ')}` },
    ])
  return filters
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>

function timeOf(text: string): number {
  const ms = /^\d{1,16}$/.test(text)
    ? Number(text)
    : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`)
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new ServiceValidationError('inbox filters', [
      { path: 'from', message: 'must be a date and time (UTC), e.g. 2025-07-31T08:30' },
    ])
  return ms
}

/** The store's query for a page of the list; checked as the stores check it. */
export function pageQuery(filters: ListFilters, limit: number): PageQuery {
  const query: PageQuery = { ...filters, limit }
  checkPage(query, 'inbox filters')
  return query
}

/** The URL of the list with these filters (and a cursor, for the next page). */
export function listUrl(base: string, filters: ListFilters, cursor?: string): string {
  const params = new URLSearchParams()
  if (filters.status) params.set('status', filters.status)
  if (filters.eventType !== undefined) params.set('type', filters.eventType)
  if (filters.orderKey?.isWellFormed()) params.set('key', filters.orderKey)
  if (filters.order === 'oldest') params.set('order', 'oldest')
  if (filters.from !== undefined && cursor === undefined)
    params.set('from', new Date(filters.from).toISOString())
  if (cursor !== undefined) params.set('cursor', cursor)
  const query = params.toString()
  return `${base}/${query ? `?${query}` : ''}`
}

/**
 * The URL of one event's page. A key travels as itself, or, when it holds a lone surrogate
 * (which a URL cannot carry), as its JSON form in `json`.
 */
export function eventUrl(base: string, key: string): string {
  const params = key.isWellFormed()
    ? `key=${encodeURIComponent(key)}`
    : `json=${encodeURIComponent(asciiJson(key))}`
  return `${base}/event?${params}`
}

/** The key an event page or action names (see `eventUrl`); undefined when none is named. */
export function keyOf(params: URLSearchParams): string | undefined {
  const json = params.get('json')
  if (json !== null) {
    try {
      const value: unknown = JSON.parse(json)
      return typeof value === 'string' ? value : undefined
    } catch {
      return undefined
    }
  }
  return params.get('key') ?? undefined
}
