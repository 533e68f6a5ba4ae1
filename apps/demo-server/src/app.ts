import type {
  DemoInfo,
  EventsResponse,
  ImpersonationResponse,
  MemberResponse,
  MembersResponse,
  Space,
  SpacesResponse,
  UploadResponse,
} from '@service-sdk/demo-web/api'
import { canWrite, type OpenClient } from '@service-sdk/open'
import { embedImpersonation, type TeamClient } from '@service-sdk/team'
import type { WebhookReceiver } from '@service-sdk/webhooks'
import type { InboxConsole } from '@service-sdk/webhooks/console'
import { webhooksHono } from '@service-sdk/webhooks/hono'
import { type Context, Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import { buildingPage, type DocsSite } from './docs.ts'
import { DemoError, toHttpError } from './errors.ts'
import type { EventFeed } from './feed.ts'
import { type DemoSession, mountInbox } from './inbox.ts'
import type { Log } from './log.ts'
import { readStatic } from './static.ts'
import { emptyFile, type UploadManager } from './uploads.ts'

export interface Readiness {
  ready: boolean
  checks: Record<string, 'ok' | 'pending' | 'failed' | 'stopping'>
}

export interface DemoDeps {
  team: TeamClient
  open: OpenClient
  receiver: WebhookReceiver
  feed: EventFeed
  uploads: UploadManager
  /** What the page may know: no key or token. */
  info(): DemoInfo
  /** Subscribe a folder's content callbacks (once per folder). */
  watchFolder(folderId: string): Promise<void>
  readiness(): Readiness
  /** The built page; without it, `/` explains how to build it. */
  webDir: string | undefined
  /** The API reference and rendered spec, built on the first visit of /docs when not built yet. */
  docs: DocsSite
  allowedHosts: readonly string[]
  log: Log
  /** Seconds between keep-alive comments on the event stream. */
  keepAliveMs?: number
  /** The webhook inbox console at `/inbox/`, behind the demo's session (see inbox.ts). */
  inbox?: { console: InboxConsole; session: DemoSession }
}

const ID = /^\d{1,19}$/
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/
const FRAME_SOURCES = (info: DemoInfo) => [new URL(info.appUrl).origin, info.baseOrigin]

const emailBody = z.object({ email: z.string().trim().min(1, 'is required').max(254) })
const createBody = emailBody.extend({ password: z.string().min(1).max(128).optional() })
const impersonateBody = z.object({ expiryHours: z.number().positive().max(720).optional() })
const watchBody = z.object({ folderId: z.string().regex(ID, 'must be a folder id (decimal digits)') })

/** The demo's HTTP surface: the page, its API, the webhook receiver, health. */
export function createDemoApp(deps: DemoDeps): Hono {
  const app = new Hono()
  const keepAliveMs = deps.keepAliveMs ?? 15_000

  app.onError((error, c) => {
    const http = toHttpError(error)
    if (http.status >= 500 && http.body.error.code === 'internal') deps.log.error('request failed', error)
    return c.json(http.body, http.status as 500, { 'cache-control': 'no-store', ...http.headers })
  })

  // The webhook receiver: the token in the URL is the credential (any Host may deliver).
  app.post('/webhooks/:token', webhooksHono(deps.receiver))

  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', (c) => {
    const readiness = deps.readiness()
    return c.json(readiness, readiness.ready ? 200 : 503, { 'cache-control': 'no-store' })
  })

  // Everything else serves people: only under a known host name (a DNS-rebinding page cannot
  // reach the admin API), and state changes only from this origin.
  app.use('*', async (c, next) => {
    const host = hostnameOf(c)
    if (!deps.allowedHosts.includes(host)) {
      return c.text(
        `Unknown host name "${host}". Add it to DEMO_ALLOWED_HOSTS to serve the demo under it.`,
        421,
      )
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin')
      if (origin !== undefined && origin !== 'null' && new URL(origin).host !== hostOf(c)) {
        throw new DemoError(403, 'cross_origin', 'Cross-origin requests are not accepted.')
      }
      if (origin === 'null')
        throw new DemoError(403, 'cross_origin', 'Cross-origin requests are not accepted.')
    }
    await next()
  })
  app.use('/api/*', async (c, next) => {
    await next()
    c.header('cache-control', 'no-store')
  })

  app.get('/api/config', (c) => c.json(deps.info()))

  // Team administration (area A). The team API key stays here.
  app.get('/api/team/members', async (c) => {
    const members = await deps.team.members.list({ signal: c.req.raw.signal })
    return c.json({ members } satisfies MembersResponse)
  })
  app.post('/api/team/members', async (c) => {
    const input = await body(c, createBody)
    const member = await deps.team.members.create(
      input.password === undefined
        ? { email: input.email }
        : { email: input.email, password: input.password },
    )
    deps.log.info(`team: created member ${member.id}`)
    return c.json({ member } satisfies MemberResponse, 201)
  })
  app.post('/api/team/invitations', async (c) => {
    const input = await body(c, emailBody)
    const member = await deps.team.members.invite({ email: input.email })
    deps.log.info(`team: invited member ${member.id}`)
    return c.json({ member } satisfies MemberResponse, 201)
  })
  app.post('/api/team/members/:id/impersonation', async (c) => {
    const id = c.req.param('id')
    if (!ID.test(id)) throw new DemoError(400, 'invalid_input', 'The member id must be decimal digits.')
    const input = await body(c, impersonateBody, {})
    const login = await deps.team.members.impersonate(
      id,
      input.expiryHours === undefined ? {} : { expiryHours: input.expiryHours },
    )
    const { html: _html, ...iframe } = embedImpersonation(login, {
      title: 'Asset library, signed in as the member',
    })
    deps.log.info(`team: impersonation login issued for member ${id}`)
    return c.json({
      member: { id },
      expiresAt: login.expiresAt,
      expiryHours: login.expiryHours,
      iframe,
    } satisfies ImpersonationResponse)
  })

  // Spaces (area B): the caller's teams, roles, validity and the write rule.
  app.get('/api/spaces', async (c) => {
    const orgs = await deps.open.orgs({ signal: c.req.raw.signal })
    const now = Date.now()
    const teams = orgs.map((org): Space => {
      const writable = canWrite(org, now)
      const readOnlyReason = writable
        ? undefined
        : org.roleCode === 'member_view'
          ? 'Your role is view-only'
          : !org.valid
            ? 'The team’s subscription is no longer valid'
            : 'The team’s subscription has expired'
      return {
        id: org.id,
        kind: 'team',
        name: org.name,
        orgNo: org.orgNo,
        edition: EDITIONS[org.orgFeeType] ?? `edition ${org.orgFeeType}`,
        role: org.roleName || org.roleCode,
        roleCode: org.roleCode,
        valid: org.valid,
        expiresAt: org.invalidTime,
        writable,
        ...(readOnlyReason ? { readOnlyReason } : {}),
      }
    })
    const personal: Space = { id: '1', kind: 'personal', name: 'Personal space', valid: true, writable: true }
    return c.json({ spaces: [personal, ...teams] } satisfies SpacesResponse)
  })

  app.post('/api/folders/watch', async (c) => {
    const { folderId } = await body(c, watchBody)
    await deps.watchFolder(folderId)
    return c.json({ watching: folderId })
  })

  // Upload flow 2: the page streams a file here; it goes on to the storage with open.upload.
  app.post('/api/uploads', async (c) => {
    const id = c.req.header('x-upload-id') ?? ''
    const clientId = c.req.header('x-demo-client') ?? ''
    if (!CLIENT_ID.test(id) || !CLIENT_ID.test(clientId)) {
      throw new DemoError(
        400,
        'invalid_input',
        'X-Upload-Id and X-Demo-Client headers (8 to 64 of A-Z a-z 0-9 _ -) are required.',
      )
    }
    const fileName = c.req.query('name')?.trim() ?? ''
    const folderId = c.req.query('folderId') || undefined
    const orgId = c.req.query('orgId') || undefined
    const issues = [
      ...(fileName === '' || fileName.length > 255
        ? [{ field: 'name', message: 'a file name of 1 to 255 characters is required' }]
        : []),
      ...(folderId !== undefined && !ID.test(folderId)
        ? [{ field: 'folderId', message: 'must be decimal digits' }]
        : []),
      ...(orgId !== undefined && !ID.test(orgId)
        ? [{ field: 'orgId', message: 'must be decimal digits' }]
        : []),
    ]
    if (issues.length > 0)
      throw new DemoError(400, 'invalid_input', 'The upload request is not valid.', issues)
    const length = c.req.header('content-length')
    const declaredSize = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined
    const stream = c.req.raw.body
    if (!stream || declaredSize === 0) throw emptyFile()
    // So that the folder's content callback for this very upload reaches the events page. The
    // root folder (0, or none) is a folder like any other: its subscribers are called back too.
    const watched = folderId ?? '0'
    await deps
      .watchFolder(watched)
      .catch((error) => deps.log.warn(`could not watch folder ${watched}`, error))
    const asset = await deps.uploads.run({
      id,
      clientId,
      body: stream,
      fileName,
      declaredSize,
      folderId,
      orgId,
      signal: c.req.raw.signal,
    })
    deps.log.info(`upload: saved asset ${asset.id} (${asset.size} bytes)`)
    return c.json({ asset } satisfies UploadResponse, 201)
  })
  for (const action of ['pause', 'resume'] as const) {
    app.post(`/api/uploads/:id/${action}`, (c) => {
      const clientId = c.req.header('x-demo-client') ?? ''
      if (!deps.uploads.pause(c.req.param('id'), clientId, action === 'pause')) {
        throw new DemoError(404, 'not_found', 'No running upload of this page has that id.')
      }
      return c.body(null, 204)
    })
  }
  app.delete('/api/uploads/:id', (c) => {
    const clientId = c.req.header('x-demo-client') ?? ''
    if (!deps.uploads.cancel(c.req.param('id'), clientId)) {
      throw new DemoError(404, 'not_found', 'No running upload of this page has that id.')
    }
    return c.body(null, 204)
  })

  // Events: what the receiver handled, then live on the stream.
  app.get('/api/events', (c) => c.json({ events: deps.feed.recent() } satisfies EventsResponse))
  app.get('/api/stream', (c) => {
    const clientId = c.req.query('client') ?? ''
    const lastId = Number(c.req.header('last-event-id') ?? Number.NaN)
    return streamSSE(c, async (stream) => {
      const send = (event: string, data: unknown, id?: number) => {
        if (stream.closed || stream.aborted) return
        stream
          .writeSSE({ event, data: JSON.stringify(data), ...(id === undefined ? {} : { id: String(id) }) })
          .catch(() => {})
      }
      const stopFeed = deps.feed.subscribe((e) => send('feed', e, e.seq))
      const stopUploads = deps.uploads.onUpdate((owner, update) => {
        if (owner === clientId) send('upload', update)
      })
      for (const e of deps.feed.recent(Number.isSafeInteger(lastId) ? lastId : undefined))
        send('feed', e, e.seq)
      send('ready', { at: Date.now() })
      const ping = setInterval(() => {
        stream.write(': keep-alive\n\n').catch(() => {})
      }, keepAliveMs)
      await new Promise<void>((resolve) => {
        const stopClose = deps.feed.onClose(resolve)
        stream.onAbort(() => {
          stopClose()
          resolve()
        })
      })
      clearInterval(ping)
      stopFeed()
      stopUploads()
    })
  })

  app.all('/api/*', () => {
    throw new DemoError(404, 'not_found', 'No such API route.')
  })

  // The inbox console, as an integrator mounts it: behind the session the page is served with.
  if (deps.inbox) mountInbox(app, deps.inbox.console)

  // The API reference and the rendered spec (`pnpm run docs`), built on the first visit.
  app.get('/docs', (c) => c.redirect('/docs/'))
  app.get('/docs/*', async (c) => {
    const state = deps.docs.state()
    if (state.kind === 'building')
      return c.html(buildingPage(state.since), 503, { 'retry-after': '3', 'cache-control': 'no-store' })
    if (state.kind === 'failed')
      return c.text(`Building the docs failed (pnpm run docs shows why):\n\n${state.output}`, 500)
    if (state.kind === 'unavailable')
      return c.text('The docs are not built: run `pnpm run docs` from the repository root.', 503)
    const path = new URL(c.req.url).pathname.slice('/docs'.length)
    const file = await readStatic(deps.docs.dir, path.endsWith('/') ? `${path}index.html` : path)
    if (!file) return c.text('Not found', 404)
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': file.type,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
  })

  // The page (Vite's build).
  app.get('*', async (c) => {
    if (!deps.webDir) {
      return c.text(
        'The demo page is not built: run `pnpm build` (or `pnpm demo`) from the repository root.',
        503,
      )
    }
    const path = new URL(c.req.url).pathname
    const file =
      (await readStatic(deps.webDir, path)) ??
      // Unknown paths without an extension are the page's own routes.
      (/\.[a-z0-9]+$/i.test(path) ? undefined : await readStatic(deps.webDir, '/index.html'))
    if (!file) return c.text('Not found', 404)
    const headers: Record<string, string> = {
      'content-type': file.type,
      'x-content-type-options': 'nosniff',
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    }
    if (file.type.startsWith('text/html')) {
      headers['content-security-policy'] = contentSecurityPolicy(deps.info())
      if (deps.inbox) headers['set-cookie'] = deps.inbox.session.cookie()
      headers['referrer-policy'] = 'strict-origin-when-cross-origin'
      headers['cache-control'] = 'no-store'
    }
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, headers)
  })

  return app
}

const EDITIONS: Record<number, string> = { 0: 'Free', 1: 'Paid', 2: 'Trial', 3: 'Blank' }

/**
 * The page runs only its own scripts and styles; it frames the selector app and the impersonation
 * login, and nothing else; nobody frames it.
 */
function contentSecurityPolicy(info: DemoInfo): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${[...new Set(FRAME_SOURCES(info))].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
}

async function body<T extends z.ZodType>(c: Context, schema: T, empty?: z.input<T>): Promise<z.output<T>> {
  const text = await c.req.text()
  let value: unknown
  if (text.trim() === '' && empty !== undefined) value = empty
  else {
    try {
      value = JSON.parse(text)
    } catch {
      throw new DemoError(400, 'invalid_input', 'The request body must be JSON.')
    }
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }))
    throw new DemoError(400, 'invalid_input', issues.map((i) => `${i.field} ${i.message}`).join('; '), issues)
  }
  return parsed.data
}

function hostOf(c: Context): string {
  return (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase()
}

function hostnameOf(c: Context): string {
  const host = hostOf(c)
  // `[::1]:5173` keeps its brackets; `localhost:5173` loses the port.
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '')
}
