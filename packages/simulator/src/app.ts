import { join } from 'node:path'
import { type Context, Hono, type Next } from 'hono'
import { createClock } from './clock.ts'
import type { Quirks, SimContext } from './context.ts'
import { controlRoutes, createControl, type SimulatorControl } from './control.ts'
import { json, teamError, traceId } from './envelopes.ts'
import {
  createFaults,
  type FaultAction,
  type Faults,
  type FaultTarget,
  seededRandom,
  targetOf,
} from './faults.ts'
import { fileRoutes } from './files.ts'
import { openApiRoutes, subscriptionRoutes } from './open/routes.ts'
import {
  createOssApp,
  directoryObjectStore,
  memoryObjectStore,
  type ObjectStore,
  ossError,
} from './oss/index.ts'
import { loginRoutes } from './pages/login.ts'
import { checkQuirks } from './quirks.ts'
import { defaultSeed, loadSeed, type Seed } from './seed.ts'
import { selectorRoutes } from './selector/routes.ts'
import { BUCKET, createState, type State } from './state.ts'
import { teamRoutes } from './team/routes.ts'
import { createReset } from './testing/reset.ts'
import { createEvents } from './webhooks/events.ts'
import { createWebhookSender, type DeliveryFaults, type WebhookSenderOptions } from './webhooks/sender.ts'
import { passValidity } from './webhooks/validity.ts'

export interface SimulatorOptions {
  /** The world to start from: a `Seed`, or the path of a seed JSON file. Default: the built-in seed. */
  seed?: Seed | string
  /** Keep state and uploaded objects in this directory, so a restart keeps them. Default: memory. */
  stateDir?: string
  /** Lifetime of sts-tmp credentials. Default 1 hour. */
  stsTtlMs?: number
  /** Seed of the fault injector's random generator (probabilistic faults replay with the same seed). */
  faultSeed?: number
  /** Live-service variations to reproduce (docs/service-behaviour.md). */
  quirks?: Partial<Quirks>
  /** Webhook delivery policy, and delivery faults to start with. */
  webhooks?: WebhookSenderOptions & DeliveryFaults
  /**
   * The base clock. Default `Date.now`. Tests move the service's time from it with
   * `control.clock` (see clock.ts); signature times stay on this one.
   */
  now?: () => number
  /** Where internal failures are reported. Default: stderr. */
  log?: (message: string, error?: unknown) => void
}

/** Node's request objects, when served by @hono/node-server: used to reset connections. */
export interface NodeBindings {
  incoming?: { socket?: { destroy(): void } }
}

export type SimulatorFetch = (request: Request, env?: NodeBindings) => Promise<Response>

export interface SimulatorApp {
  /** The service: team API, open API, selector page, login page, files and `/_sim` control. */
  fetch: SimulatorFetch
  /** The object storage (OSS protocol); it needs its own origin, as real OSS has. */
  ossFetch: SimulatorFetch
  control: SimulatorControl
  /** Tell the app where its object storage is reachable (sts-tmp hands this out). */
  setOssEndpoint(endpoint: string): void
  /** Tell the app its public origin (until a request arrives, download links use it). */
  setPublicOrigin(origin: string): void
  /** Stop background work (webhook deliveries). */
  close(): void
}

/** The simulator as in-process fetch handlers: no ports, for tests that call `app.fetch`. */
export function createSimulatorApp(options: SimulatorOptions = {}): SimulatorApp {
  const seed = typeof options.seed === 'string' ? loadSeed(options.seed) : (options.seed ?? defaultSeed())
  const wallNow = options.now ?? Date.now
  const clock = createClock(wallNow)
  const now = clock.now
  const state: State = createState(seed, { dir: options.stateDir, now: now() })
  const store: ObjectStore = options.stateDir
    ? directoryObjectStore(join(options.stateDir, 'objects'))
    : memoryObjectStore()
  const faults: Faults = createFaults(options.faultSeed)
  const log = options.log ?? ((message, error) => console.error(`[service-sim] ${message}`, error ?? ''))
  let ossEndpoint = 'oss.service-sim.invalid'
  let publicOrigin = 'http://127.0.0.1'
  // Delivery faults and the drift quirk draw from their own generators seeded like the faults.
  const sender = createWebhookSender(options.webhooks ?? {}, {
    now,
    log,
    random: seededRandom(options.faultSeed ?? 1),
  })
  const sim: SimContext = {
    state,
    store,
    faults,
    quirks: {
      successCode: '0',
      bareEventTypes: false,
      selectorFamily: 'both',
      ...checkQuirks(options.quirks ?? {}),
    },
    now,
    ossEndpoint: () => ossEndpoint,
    publicOrigin: () => publicOrigin,
    stsTtlMs: options.stsTtlMs ?? 3_600_000,
    log,
    events: { materialsSaved: () => {} },
  }
  const events = createEvents(sim, sender, seededRandom(options.faultSeed ?? 1))
  sim.events = events
  const reset = createReset({ sim, sender, seed, quirks: { ...sim.quirks }, clock })
  const control = createControl(sim, sender, events.changes, reset, clock)
  clock.onMove((from, to) => passValidity(sim, events.changes, from, to))

  const app = new Hono()
  app.use('*', async (c, next) => {
    publicOrigin = new URL(c.req.url).origin
    await next()
  })
  app.use('*', faultMiddleware(sim))
  app.route('/api/team', teamRoutes(sim))
  app.route('/open-api/standard/call/service', openApiRoutes(sim))
  app.route('/api/service', subscriptionRoutes(sim))
  app.route('/auth', loginRoutes(sim))
  app.route('/outer', selectorRoutes(sim))
  app.route('/files', fileRoutes(sim))
  app.route('/_sim', controlRoutes(control))
  app.notFound(() => json({ error: 'Not found' }, 404))

  const oss = createOssApp({
    log,
    credentials: {
      get: (accessKeyId) => state.data.sts.find((s) => s.accessKeyId === accessKeyId),
    },
    store,
    now: wallNow,
    credentialNow: now,
    bucket: BUCKET,
    cors: () => sim.quirks.ossCors ?? 'open',
    beforeRequest: async (ctx, request) => {
      const action = faults.take(
        {
          target: 'oss',
          method: ctx.method,
          path: `/${ctx.key}`,
          op: ctx.op,
          ...(ctx.partNumber ? { partNumber: ctx.partNumber } : {}),
        },
        'before',
      )
      if (!action) return undefined
      if (action.type === 'corrupt') {
        const length = Number(request.headers.get('content-length') ?? 0) || 0
        return { corruptAt: action.offset ?? Math.floor(faults.random() * length) }
      }
      if (action.type === 'latency') await sleep(action.ms)
      else if (action.type === 'expire-credentials') {
        const credential = state.data.sts.find((s) => s.accessKeyId === ctx.accessKeyId)
        if (credential) credential.expiresAt = now() - 1
      } else if (action.type === 'status') {
        const code = action.ossCode ?? (action.status >= 500 ? 'InternalError' : 'InjectedFault')
        return ossError(action.status, code, 'Injected by the simulator', ctx.method === 'HEAD')
      }
      return undefined
    },
  })

  return {
    fetch: withResets(
      faults,
      (request) => targetOf(new URL(request.url).pathname),
      (req, env) => app.fetch(req, env),
    ),
    ossFetch: withResets(
      faults,
      () => 'oss',
      (req, env) => oss.fetch(req, env),
    ),
    control,
    setOssEndpoint(endpoint) {
      ossEndpoint = endpoint
    },
    setPublicOrigin(origin) {
      publicOrigin = origin
    },
    close() {
      sender.stop()
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Connection resets happen before any routing: on a real socket it is destroyed; in process the
 * fetch rejects as a network failure would.
 */
function withResets(
  faults: Faults,
  target: (request: Request) => FaultTarget,
  handle: (request: Request, env?: NodeBindings) => Response | Promise<Response>,
): SimulatorFetch {
  return async (request, env) => {
    const url = new URL(request.url)
    const action = faults.take(
      { target: target(request), method: request.method, path: url.pathname + url.search },
      'reset',
    )
    if (action) {
      const socket = env?.incoming?.socket
      if (socket) {
        socket.destroy()
        return new Response(null, { status: 500 })
      }
      throw connectionReset()
    }
    return handle(request, env)
  }
}

/**
 * What Node's fetch rejects with when the server resets the connection, for a simulator called
 * in-process (no socket to destroy): the client under test must see the platform's own error.
 */
function connectionReset(): TypeError {
  // biome-ignore lint/plugin: an imitation of the platform's socket error (undici's cause), not an error of the simulator
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
  return new TypeError('fetch failed', { cause })
}

/** Team, open and page faults: a failure in the area's own format, before or after handling. */
function faultMiddleware(sim: SimContext) {
  return async (c: Context, next: Next) => {
    const url = new URL(c.req.url)
    const request = { target: targetOf(url.pathname), method: c.req.method, path: url.pathname + url.search }
    const before = sim.faults.take(request, 'before')
    if (before?.type === 'latency') await sleep(before.ms)
    else if (before) return failure(request.target, before)
    await next()
    const after = sim.faults.take(request, 'after')
    if (after?.type === 'latency') await sleep(after.ms)
    else if (after) {
      if (after.type === 'reset') {
        // Handled, then the connection dies before the answer: the client cannot tell.
        const socket = (c.env as NodeBindings | undefined)?.incoming?.socket
        if (socket) socket.destroy()
        else throw connectionReset()
      }
      c.res = failure(request.target, after)
    }
  }
}

const TEAM_TEXT: Record<number, string> = {
  500: 'Internal server error',
  429: 'Too many requests',
  503: 'Service unavailable',
}

function failure(target: FaultTarget, action: FaultAction): Response {
  if (action.type === 'open-code') {
    return json({
      code: action.code,
      message: action.message ?? 'Injected failure',
      result: null,
      traceId: traceId(),
    })
  }
  const status = action.type === 'status' ? action.status : 500
  const headers: Record<string, string> = {}
  if (action.type === 'status' && action.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(action.retryAfterSeconds)
  if (target === 'team') {
    const response = teamError('internal', TEAM_TEXT[status] ?? `HTTP ${status}`)
    return new Response(response.body, {
      status,
      headers: { ...Object.fromEntries(response.headers), ...headers },
    })
  }
  if (target === 'open') {
    return json(
      {
        code: String(status),
        message: TEAM_TEXT[status] ?? `HTTP ${status}`,
        result: null,
        traceId: traceId(),
      },
      status,
      headers,
    )
  }
  return new Response(`Injected failure ${status}`, { status, headers })
}
