import { ServiceValidationError } from '@service-sdk/core'
import { createRedactor, forgeryVerdict, redactingLogger } from '@service-sdk/core/internal'
import { describeError, WebhookError } from '../errors.ts'
import { bodyText, decodeBody } from '../events/decode.ts'
import { readWebhook } from '../events/parse.ts'
import type { SchemaWarning } from '../events/warnings.ts'
import { readCapped } from '../intake/body.ts'
import { type Action, actionOf, runAction } from './actions.ts'
import { type Answers, answers } from './answers.ts'
import { consoleAsset } from './assets.ts'
import { type ConsoleSettings, consoleSettings, type InboxConsoleOptions } from './options.ts'
import { filtersOf, keyOf, pageQuery } from './queries.ts'
import { eventPage, type InboxSummary, listPage } from './views.ts'

export type { ConsoleAuthorize, InboxConsoleOptions } from './options.ts'
export type { InboxSummary } from './views.ts'

/** The console: a Web-standard handler, for any framework that speaks `Request` and `Response`. */
export interface InboxConsole {
  /** Answers a request under `basePath` (404 for any other path). */
  fetch(request: Request): Promise<Response>
  /** Where it is mounted, as given (default `/inbox`). */
  readonly basePath: string
}

/** An action's body at most: a thousand keys of a few KB each. */
const MAX_ACTION_BYTES = 4 * 1024 * 1024

interface Console {
  s: ConsoleSettings
  a: Answers
  log: ReturnType<typeof redactingLogger>
}

/**
 * A page over the inbox (events by status, type, time and order key; one event with its body,
 * attempts, last error and schema warnings; requeue, replay, prune) and the JSON API it uses,
 * behind the `authorize` you give. Throws `ServiceValidationError` without one.
 */
export function createInboxConsole(options: InboxConsoleOptions): InboxConsole {
  const s = consoleSettings(options)
  const scrub = createRedactor(s.secrets)
  const c: Console = { s, a: answers(scrub), log: redactingLogger(options.logger, scrub) }
  return { fetch: (request) => answer(c, request), basePath: s.basePath }
}

async function answer(c: Console, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const path = url.pathname.startsWith(c.s.basePath) ? url.pathname.slice(c.s.basePath.length) : undefined
  const asPage = path !== undefined && !path.startsWith('/api/')
  if (path === undefined) return c.a.error(404, 'not_found', 'Not found.', true)
  const refused = await gate(c, request, asPage)
  if (refused) return refused
  try {
    return await route(c, request, path, url)
  } catch (error) {
    if (ServiceValidationError.isInstance(error)) {
      const message = error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
      return c.a.error(400, 'validation_error', message, asPage)
    }
    if (WebhookError.isInstance(error) && error.status !== undefined && error.status < 500)
      return c.a.error(error.status, error.code, error.message, asPage)
    // The store's failure, redacted: never its connection string, never the error itself.
    c.log.error('webhooks console: a request failed', { error: describeError(error) })
    const unavailable = WebhookError.isInstance(error) && error.code === 'store_unavailable'
    return c.a.error(
      unavailable ? 503 : 500,
      unavailable ? 'store_unavailable' : 'internal',
      unavailable ? 'The inbox cannot be reached now; try again.' : 'The console failed; see the server log.',
      asPage,
    )
  }
}

/** `authorize` for every request; for actions, the forgery checks first. */
async function gate(c: Console, request: Request, asPage: boolean): Promise<Response | undefined> {
  if (request.method === 'POST') {
    const verdict = forgeryVerdict(request, c.s.allowed)
    if (verdict === 'not_json')
      return c.a.error(415, 'unsupported_media_type', 'Actions take application/json bodies only.', false)
    if (verdict)
      return c.a.error(403, 'origin_not_allowed', 'Actions are not taken from pages on other origins.', false)
  }
  let verdict: boolean | Response
  try {
    verdict = await c.s.authorize(request)
  } catch (error) {
    c.log.error('webhooks console: authorize threw; refused', { error: describeError(error) })
    return c.a.error(500, 'authorize_failed', 'Refused: the authorization check failed.', asPage)
  }
  if (verdict instanceof Response) return verdict
  return verdict === true ? undefined : c.a.error(401, 'unauthorized', 'Not authorized.', asPage)
}

async function route(c: Console, request: Request, path: string, url: URL): Promise<Response> {
  const { s, a } = c
  const get = request.method === 'GET' || request.method === 'HEAD'
  if (get && (path === '' || path === '/')) {
    const filters = filtersOf(url.searchParams)
    const [summary, page] = await Promise.all([summaryOf(s), s.store.page!(pageQuery(filters, s.pageSize))])
    return a.html(listPage(s, summary, filters, page))
  }
  if (get && path === '/event') {
    const key = keyOf(url.searchParams)
    const event = key === undefined ? undefined : await s.store.get(key)
    if (!event) return a.error(404, 'not_found', 'No event has this key (it may have been pruned).', true)
    return a.html(eventPage(s, await summaryOf(s), event, warningsOf(event.body)))
  }
  if (get && path.startsWith('/assets/')) {
    const asset = await consoleAsset(path.slice('/assets/'.length))
    return asset ? a.asset(asset.text, asset.type) : a.error(404, 'not_found', 'Not found.', true)
  }
  if (get && path === '/api/summary') return a.json(await summaryOf(s))
  if (get && path === '/api/events') {
    const page = await s.store.page!(pageQuery(filtersOf(url.searchParams), limitOf(url, s.pageSize)))
    return a.json({
      events: page.events.map(({ body: _body, ...rest }) => rest),
      next: page.next ?? null,
      partial: page.partial,
    })
  }
  if (get && path === '/api/event') {
    const key = keyOf(url.searchParams)
    const event = key === undefined ? undefined : await s.store.get(key)
    if (!event) return a.error(404, 'not_found', 'No event has this key.', false)
    return a.json({ event, warnings: warningsOf(event.body) })
  }
  const action = request.method === 'POST' ? actionOf(path) : undefined
  if (action) return a.json(await runAction(s, action, await actionBody(request)))
  return a.error(
    get || request.method === 'POST' ? 404 : 405,
    'not_found',
    'Not found.',
    !path.startsWith('/api/'),
  )
}

function limitOf(url: URL, fallback: number): number {
  const limit = url.searchParams.get('limit')
  return limit === null || limit === '' ? fallback : Number(limit)
}

async function summaryOf(s: ConsoleSettings): Promise<InboxSummary> {
  const [counts, oldestPendingAt] = await Promise.all([s.store.counts(), s.store.oldestPending!()])
  return {
    counts,
    oldestPendingAt,
    oldestPendingAgeMs: oldestPendingAt === null ? null : Math.max(0, Date.now() - oldestPendingAt),
  }
}

function warningsOf(body: string): SchemaWarning[] {
  try {
    return readWebhook(decodeBody(body)).warnings
  } catch (error) {
    return [{ path: '(body)', value: null, message: `not readable: ${describeError(error)}` }]
  }
}

async function actionBody(request: Request): Promise<unknown> {
  const bytes = await readCapped(request.body, MAX_ACTION_BYTES, request.headers.get('content-length'))
  try {
    return JSON.parse(bodyText(bytes)) as unknown
  } catch {
    throw new ServiceValidationError('inbox action', [{ path: 'body', message: 'must be a JSON object' }])
  }
}

export type { Action }
