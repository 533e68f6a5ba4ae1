import { join } from 'node:path'
import type { Logger } from '@service-sdk/core'
import { Hono } from 'hono'
import { isConnectionReset } from '../control/connection-reset.ts'
import { controlRoutes, createControl, type SimulatorControl } from '../control/control.ts'
import { faultMiddleware, ossFaultHook, withResets } from '../control/fault-hooks.ts'
import { createFaults, seededRandom, targetOf } from '../control/faults.ts'
import { checkQuirks } from '../control/quirks.ts'
import { createReset } from '../control/reset.ts'
import { json } from '../http/envelopes.ts'
import type { SimulatorFetch } from '../http/fetch-handler.ts'
import { createClock, type MovableClock } from '../model/clock.ts'
import type { Quirks, SimContext } from '../model/context.ts'
import { defaultSeed, loadSeed, type Seed } from '../model/seed.ts'
import { BUCKET, createState } from '../model/state.ts'
import { fileRoutes } from '../open/asset-files.ts'
import { openApiRoutes, subscriptionRoutes } from '../open/routes.ts'
import { createOssApp, directoryObjectStore, memoryObjectStore } from '../oss/index.ts'
import { loginRoutes } from '../pages/login.ts'
import { selectorRoutes } from '../selector/routes.ts'
import { teamRoutes } from '../team/routes.ts'
import { createEvents } from '../webhooks/events.ts'
import {
  createWebhookSender,
  type DeliveryFaults,
  type WebhookSenderOptions,
} from '../webhooks/sender/sender.ts'
import { passValidity } from '../webhooks/validity.ts'
import { simulatorLogger } from './logger.ts'

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
   * `control.clock` (see model/clock.ts); signature times stay on this one.
   */
  now?: () => number
  /** Where the simulator's own failures are reported (the SDK's `Logger`). Default: stderr. */
  logger?: Partial<Logger>
}

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
  const wallNow = options.now ?? Date.now
  const clock = createClock(wallNow)
  const endpoints: Endpoints = { oss: 'oss.service-sim.invalid', public: 'http://127.0.0.1' }
  const { sim, sender, control } = createWorld(options, clock, endpoints)
  const app = serviceApp(sim, control, endpoints)
  const oss = createOssApp({
    logger: simulatorLogger(options.logger, 'oss'),
    credentials: {
      get: (accessKeyId) => sim.state.data.sts.find((s) => s.accessKeyId === accessKeyId),
    },
    store: sim.store,
    now: wallNow,
    credentialNow: clock.now,
    bucket: BUCKET,
    cors: () => sim.quirks.ossCors ?? 'open',
    beforeRequest: ossFaultHook(sim),
  })
  return {
    fetch: withResets(
      sim.faults,
      (request) => targetOf(new URL(request.url).pathname),
      (req, env) => app.fetch(req, env),
    ),
    ossFetch: withResets(
      sim.faults,
      () => 'oss',
      (req, env) => oss.fetch(req, env),
    ),
    control,
    setOssEndpoint(endpoint) {
      endpoints.oss = endpoint
    },
    setPublicOrigin(origin) {
      endpoints.public = origin
    },
    close() {
      sender.stop()
    },
  }
}

/** Where the service's clients reach it and its object storage; set once the ports are known. */
interface Endpoints {
  oss: string
  public: string
}

/** The state, object store, faults, quirks, webhook sender and control of one simulator. */
function createWorld(options: SimulatorOptions, clock: MovableClock, endpoints: Endpoints) {
  const seed = typeof options.seed === 'string' ? loadSeed(options.seed) : (options.seed ?? defaultSeed())
  const logger = simulatorLogger(options.logger, 'service-sim')
  // Delivery faults and the drift quirk draw from their own generators seeded like the faults.
  const sender = createWebhookSender(options.webhooks ?? {}, {
    logger,
    random: seededRandom(options.faultSeed ?? 1),
  })
  const sim: SimContext = {
    state: createState(seed, { dir: options.stateDir, now: clock.now() }),
    store: options.stateDir ? directoryObjectStore(join(options.stateDir, 'objects')) : memoryObjectStore(),
    faults: createFaults(options.faultSeed),
    quirks: {
      successCode: '0',
      bareEventTypes: false,
      selectorFamily: 'both',
      ...checkQuirks(options.quirks ?? {}),
    },
    now: clock.now,
    ossEndpoint: () => endpoints.oss,
    publicOrigin: () => endpoints.public,
    stsTtlMs: options.stsTtlMs ?? 3_600_000,
    logger,
    events: { materialsSaved: () => {} },
  }
  const events = createEvents(sim, sender, seededRandom(options.faultSeed ?? 1))
  sim.events = events
  const reset = createReset({ sim, sender, seed, quirks: { ...sim.quirks }, clock })
  const control = createControl(sim, sender, events.changes, reset, clock)
  clock.onMove((from, to) => passValidity(sim, events.changes, from, to))
  return { sim, sender, control }
}

/** The service's routes: team API, open API, subscriptions, login and selector pages, files, control. */
function serviceApp(sim: SimContext, control: SimulatorControl, endpoints: Endpoints): Hono {
  const app = new Hono()
  app.use('*', async (c, next) => {
    endpoints.public = new URL(c.req.url).origin
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
  app.onError((error) => {
    // A reset after handling (fault `reset`, `when: 'after'`) leaves the app as fetch's own error.
    if (isConnectionReset(error)) throw error
    sim.logger.error('internal failure', { error })
    return new Response('Internal Server Error', { status: 500 })
  })
  return app
}
