import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import {
  ServiceAuthenticationError,
  ServiceConnectionError,
  ServiceTimeoutError,
  ServiceValidationError,
} from '@service-sdk/core'
import type { DemoInfo } from '@service-sdk/demo-web/api'
import { createOpenClient, type OpenClient } from '@service-sdk/open'
import type { RunningSimulator } from '@service-sdk/simulator'
import { createTeamClient, type TeamClient } from '@service-sdk/team'
import {
  createWebhookReceiver,
  generateWebhookToken,
  sqliteStore,
  type WebhookReceiver,
} from '@service-sdk/webhooks'
import { createInboxConsole } from '@service-sdk/webhooks/console'
import type { Hono } from 'hono'
import { createDemoApp, type Readiness } from './app.ts'
import { ConfigError, type DemoConfig, type ServiceSettings } from './config.ts'
import { createEventFeed, type EventFeed } from './feed.ts'
import { demoSession } from './inbox.ts'
import { type Log, silentLog } from './log.ts'
import { builtWebDir, callbackHost, closeServer, docsOf, listen, pageUrl } from './server.ts'
import { startEmbeddedSimulator } from './simulator.ts'
import { Subscriptions } from './subscriptions.ts'
import { createUploadManager } from './uploads.ts'

export interface RunningDemo {
  /** The one URL to open. */
  url: string
  port: number
  /** Where the service sends webhooks (token masked). */
  receiverUrl: string
  mode: DemoConfig['mode']
  /** The embedded simulator, in simulator mode (tests drive it through its control API). */
  simulator: RunningSimulator | undefined
  app: Hono
  feed: EventFeed
  receiver: WebhookReceiver
  /** Resolves once the start-up subscriptions have settled (succeeded or failed). */
  subscribed: Promise<void>
  /** Graceful: refuse new uploads, wait for running ones, end streams, close the server and stores. */
  stop(): Promise<void>
}

/** The inbox console at `/inbox/`, behind a session of this run (see inbox.ts). */
function inboxConsole(receiver: WebhookReceiver, token: string) {
  const session = demoSession()
  return {
    session,
    console: createInboxConsole({
      receiver,
      authorize: session.authorize,
      secrets: [token],
      title: 'Demo inbox',
    }),
  }
}

export interface StartDemoOptions {
  log?: Log
}

/**
 * Start the whole demo: the simulator (when no service is configured), the clients, the webhook
 * receiver with its SQLite inbox, the HTTP server (page + API + receiver), then the subscriptions.
 */
export async function startDemo(config: DemoConfig, options: StartDemoOptions = {}): Promise<RunningDemo> {
  const log = options.log ?? silentLog
  const cleanup: Array<() => Promise<void> | void> = []
  try {
    mkdirSync(config.dataDir, { recursive: true })
    const token = webhookToken(config.dataDir)
    const { service, simulator, watchFolderIds } = await serviceOf(config, cleanup)
    const { team, open } = clientsOf(service, log)
    await checkCredentials(team, open, config.mode)
    const feed = createEventFeed(config.eventHistory)
    const receiver = receiverOf(config, token, feed, log)
    cleanup.push(() => receiver.close())
    const uploads = createUploadManager(open, { maxBytes: config.maxUploadBytes })
    const subscriptions = new Subscriptions(open, log)
    const server = { listening: false, stopping: false }
    const docs = docsOf(config)
    cleanup.push(() => docs.stop())
    const app = createDemoApp({
      team,
      open,
      receiver,
      feed,
      uploads,
      info: () => infoOf(config, service, subscriptions),
      watchFolder: subscriptions.watch,
      readiness: () => readinessOf(server, subscriptions),
      webDir: config.webDir ?? builtWebDir(),
      docs,
      allowedHosts: config.allowedHosts,
      log,
      inbox: inboxConsole(receiver, token),
    })
    const http = await listen(app, config.port, config.host)
    server.listening = true
    const port = (http.address() as AddressInfo).port
    cleanup.push(() => closeServer(http))
    const publicUrl = config.publicUrl ?? `http://${callbackHost(config.host)}:${port}`
    const masked = `${publicUrl}/webhooks/${token.slice(0, 4)}…`
    const subscribed = subscriptions.start(`${publicUrl}/webhooks/${token}`, masked, [...watchFolderIds])
    const stop = async () => {
      if (server.stopping) return
      server.stopping = true
      if (uploads.inFlight > 0) log.info(`waiting for ${uploads.inFlight} upload(s) to finish…`)
      await uploads.drain(config.shutdownGraceMs)
      feed.close()
      cleanup.splice(0)
      docs.stop()
      await closeServer(http)
      await receiver.close()
      await simulator?.stop()
    }
    const url = pageUrl(config.host, port)
    return {
      url,
      port,
      receiverUrl: masked,
      mode: config.mode,
      simulator,
      app,
      feed,
      receiver,
      subscribed,
      stop,
    }
  } catch (error) {
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {})
    throw error
  }
}

/** The service's settings: the environment's, or the embedded simulator's (started here). */
async function serviceOf(config: DemoConfig, cleanup: Array<() => Promise<void> | void>) {
  const watchFolderIds = new Set(config.watchFolderIds)
  if (config.mode !== 'simulator') {
    return { service: config.service as ServiceSettings, simulator: undefined, watchFolderIds }
  }
  const embedded = await startEmbeddedSimulator({ port: config.simulatorPort })
  cleanup.push(() => embedded.simulator.stop())
  for (const id of embedded.defaultWatchFolderIds) watchFolderIds.add(id)
  return {
    service: embedded.settings,
    simulator: embedded.simulator as RunningSimulator | undefined,
    watchFolderIds,
  }
}

function clientsOf(service: ServiceSettings, log: Log): { team: TeamClient; open: OpenClient } {
  const logger = { warn: log.warn, error: log.error }
  const team = createTeamClient({ baseUrl: service.baseUrl, apiKey: service.teamApiKey, logger })
  const open = createOpenClient({
    openUrl: service.openUrl,
    token: service.openToken,
    apiKey: service.apiKey,
    logger,
  })
  return { team, open }
}

/** The webhook receiver over the data dir's SQLite inbox; what it handles goes to the page's feed. */
function receiverOf(config: DemoConfig, token: string, feed: EventFeed, log: Log): WebhookReceiver {
  const receiver = createWebhookReceiver({
    token,
    store: sqliteStore(join(config.dataDir, 'inbox.sqlite')),
    logger: { warn: log.warn, error: log.error },
  })
  receiver.onAny((event, context) => {
    feed.push(event, context)
  })
  receiver.onError((error) => log.warn('webhook processing', error))
  return receiver
}

function readinessOf(
  server: { listening: boolean; stopping: boolean },
  subscriptions: Subscriptions,
): Readiness {
  const state = subscriptions.state
  const checks: Readiness['checks'] = {
    server: server.stopping ? 'stopping' : server.listening ? 'ok' : 'pending',
    subscriptions: state,
  }
  return { ready: server.listening && !server.stopping && state !== 'pending', checks }
}

/** What the page may know: no key or token. */
function infoOf(config: DemoConfig, service: ServiceSettings, subscriptions: Subscriptions): DemoInfo {
  return {
    mode: config.mode,
    appUrl: service.appUrl,
    baseOrigin: new URL(service.baseUrl).origin,
    maxUploadBytes: config.maxUploadBytes,
    webhooks: structuredClone(subscriptions.status),
  }
}

/** The capability token of the webhook URL: kept in the data dir, so subscriptions outlive restarts. */
function webhookToken(dataDir: string): string {
  const file = join(dataDir, 'webhook-token')
  try {
    const saved = readFileSync(file, 'utf8').trim()
    if (/^[A-Za-z0-9_-]{22,512}$/.test(saved)) return saved
  } catch {
    // first start
  }
  const token = generateWebhookToken()
  writeFileSync(file, `${token}\n`, { mode: 0o600 })
  return token
}

/** Wrong keys or an unreachable service are configuration problems: say which variable, at start. */
async function checkCredentials(team: TeamClient, open: OpenClient, mode: DemoConfig['mode']): Promise<void> {
  const checks: Array<[() => Promise<unknown>, string, string]> = [
    [() => team.members.list(), 'SERVICE_TEAM_API_KEY', 'SERVICE_BASE_URL'],
    [() => open.orgs(), 'SERVICE_OPEN_TOKEN', 'SERVICE_OPEN_URL'],
    [() => open.events.types(), 'SERVICE_API_KEY', 'SERVICE_OPEN_URL'],
  ]
  const issues: { variable: string; message: string }[] = []
  await Promise.all(
    checks.map(async ([call, key, url]) => {
      try {
        await call()
      } catch (error) {
        if (mode === 'simulator') throw error
        if (ServiceAuthenticationError.isInstance(error)) {
          issues.push({
            variable: key === 'SERVICE_OPEN_TOKEN' ? 'SERVICE_OPEN_TOKEN / SERVICE_OPEN_TOKEN_TYPE' : key,
            message: 'was refused by the service (401): check its value',
          })
        } else if (ServiceConnectionError.isInstance(error) || ServiceTimeoutError.isInstance(error)) {
          issues.push({ variable: url, message: `the service could not be reached there: ${error.message}` })
        } else if (ServiceValidationError.isInstance(error)) {
          issues.push({ variable: key, message: error.message })
        }
        // Anything else (a 5xx, a refused capability) is the service's state, not configuration:
        // the demo starts and the page shows the failure where it matters.
      }
    }),
  )
  const unique = issues.filter((i, n) => issues.findIndex((j) => j.variable === i.variable) === n)
  if (unique.length > 0) throw new ConfigError(unique)
}
