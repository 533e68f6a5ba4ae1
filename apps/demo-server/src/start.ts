import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import {
  ASSET_EVENT_TYPES,
  type AssetEventType,
  ServiceAuthenticationError,
  ServiceConnectionError,
  ServiceTimeoutError,
  ServiceValidationError,
} from '@service-sdk/core'
import type { DemoInfo, WebhookStatus } from '@service-sdk/demo-web/api'
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
import { docsSite, repositoryDocsBuild } from './docs.ts'
import { toHttpError } from './errors.ts'
import { createEventFeed, type EventFeed } from './feed.ts'
import { demoSession } from './inbox.ts'
import { type Log, silentLog } from './log.ts'
import { startEmbeddedSimulator } from './simulator.ts'
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
  const undo = async () => {
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {})
  }

  try {
    mkdirSync(config.dataDir, { recursive: true })
    const token = webhookToken(config.dataDir)

    let simulator: RunningSimulator | undefined
    let service: ServiceSettings
    const watchFolderIds = new Set(config.watchFolderIds)
    if (config.mode === 'simulator') {
      const embedded = await startEmbeddedSimulator({ port: config.simulatorPort })
      simulator = embedded.simulator
      cleanup.push(() => embedded.simulator.stop())
      service = embedded.settings
      for (const id of embedded.defaultWatchFolderIds) watchFolderIds.add(id)
    } else {
      service = config.service!
    }

    const sdkLogger = { warn: log.warn, error: log.error }
    const team = createTeamClient({ baseUrl: service.baseUrl, apiKey: service.teamApiKey, logger: sdkLogger })
    const open = createOpenClient({
      openUrl: service.openUrl,
      token: service.openToken,
      apiKey: service.apiKey,
      logger: sdkLogger,
    })
    await checkCredentials(team, open, config.mode)

    const feed = createEventFeed(config.eventHistory)
    const receiver = createWebhookReceiver({
      token,
      store: sqliteStore(join(config.dataDir, 'inbox.sqlite')),
      logger: sdkLogger,
    })
    receiver.onAny((event, context) => {
      feed.push(event, context)
    })
    receiver.onError((error) => log.warn('webhook processing', error))
    cleanup.push(() => receiver.close())

    const uploads = createUploadManager(open, { maxBytes: config.maxUploadBytes })
    const status: WebhookStatus = {
      receiverUrl: '',
      assetEvents: { state: 'pending', eventTypes: [] },
      folders: { state: 'pending', folderIds: [] },
    }
    let listening = false
    let stopping = false

    const watching = new Map<string, Promise<void>>()
    let callbackUrl = ''
    const watchFolder = (folderId: string): Promise<void> => {
      let pending = watching.get(folderId)
      if (!pending) {
        pending = open.folders.subscribe({ folderIds: [folderId], callbackUrl }).then(() => {
          status.folders.folderIds = [...new Set([...status.folders.folderIds, folderId])]
          if (status.folders.state !== 'active')
            status.folders = { state: 'active', folderIds: status.folders.folderIds }
          log.info(`webhooks: watching folder ${folderId}`)
        })
        watching.set(folderId, pending)
        pending.catch(() => watching.delete(folderId))
      }
      return pending
    }

    const readiness = (): Readiness => {
      const subscriptions =
        status.assetEvents.state === 'pending' || status.folders.state === 'pending'
          ? 'pending'
          : status.assetEvents.state === 'failed' || status.folders.state === 'failed'
            ? 'failed'
            : 'ok'
      const checks: Readiness['checks'] = {
        server: stopping ? 'stopping' : listening ? 'ok' : 'pending',
        subscriptions,
      }
      return { ready: listening && !stopping && subscriptions !== 'pending', checks }
    }

    const info = (): DemoInfo => ({
      mode: config.mode,
      appUrl: service.appUrl,
      baseOrigin: new URL(service.baseUrl).origin,
      maxUploadBytes: config.maxUploadBytes,
      webhooks: structuredClone(status),
    })

    const docs = docsOf(config)
    cleanup.push(() => docs.stop())
    const app = createDemoApp({
      team,
      open,
      receiver,
      feed,
      uploads,
      info,
      watchFolder,
      readiness,
      webDir: config.webDir ?? builtWebDir(),
      docs,
      allowedHosts: config.allowedHosts,
      log,
      inbox: inboxConsole(receiver, token),
    })

    const server = await listen(app, config.port, config.host)
    listening = true
    const port = (server.address() as AddressInfo).port
    cleanup.push(() => closeServer(server))

    const publicUrl = config.publicUrl ?? `http://${callbackHost(config.host)}:${port}`
    callbackUrl = `${publicUrl}/webhooks/${token}`
    status.receiverUrl = `${publicUrl}/webhooks/${token.slice(0, 4)}…`

    const subscribed = subscribeAll(open, callbackUrl, [...watchFolderIds], status, log)
    // Folders subscribed at start-up are not subscribed again when the page picks them.
    const initial = subscribed.then(() => {
      if (status.folders.state === 'active') return
      throw new Error('the start-up folder subscription failed')
    })
    initial.catch(() => {
      for (const id of watchFolderIds) watching.delete(id)
    })
    for (const id of watchFolderIds) watching.set(id, initial)

    const stop = async () => {
      if (stopping) return
      stopping = true
      if (uploads.inFlight > 0) log.info(`waiting for ${uploads.inFlight} upload(s) to finish…`)
      await uploads.drain(config.shutdownGraceMs)
      feed.close()
      docs.stop()
      cleanup.splice(0)
      await closeServer(server)
      await receiver.close()
      await simulator?.stop()
    }

    return {
      url: pageUrl(config.host, port),
      port,
      receiverUrl: status.receiverUrl,
      mode: config.mode,
      simulator,
      app,
      feed,
      receiver,
      subscribed,
      stop,
    }
  } catch (error) {
    await undo()
    throw error
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

/** At start-up: every offered asset event, and the content callbacks of the watched folders. */
async function subscribeAll(
  open: OpenClient,
  callbackUrl: string,
  folderIds: string[],
  status: WebhookStatus,
  log: Log,
): Promise<void> {
  const assets = (async () => {
    try {
      // The codes on offer that this SDK knows how to subscribe (a newer code would be refused).
      const known = new Set<string>(ASSET_EVENT_TYPES)
      const offered = (await open.events.types())
        .map((t) => t.code)
        .filter((code): code is AssetEventType => known.has(code))
      if (offered.length === 0) throw new Error('The service offers no asset events.')
      await open.events.subscribe({ callbackUrl, eventTypes: offered })
      status.assetEvents = { state: 'active', eventTypes: offered }
      log.info(`webhooks: subscribed to ${offered.length} asset event types`)
    } catch (error) {
      status.assetEvents = { state: 'failed', eventTypes: [], message: toHttpError(error).body.error.message }
      log.warn('webhooks: could not subscribe to asset events', error)
    }
  })()
  const folders = (async () => {
    if (folderIds.length === 0) {
      status.folders = { state: 'active', folderIds: [...status.folders.folderIds] }
      return
    }
    try {
      await open.folders.subscribe({ folderIds, callbackUrl })
      status.folders = {
        state: 'active',
        folderIds: [...new Set([...status.folders.folderIds, ...folderIds])],
      }
      log.info(`webhooks: watching ${folderIds.length} folder(s)`)
    } catch (error) {
      status.folders = { state: 'failed', folderIds: [], message: toHttpError(error).body.error.message }
      log.warn('webhooks: could not subscribe to folder callbacks', error)
    }
  })()
  await Promise.all([assets, folders])
}

/**
 * The docs /docs serves: `DEMO_DOCS_DIR`, else the repository's docs/site; built there by the
 * repository's `scripts/docs.ts` on the first visit when they are not there yet.
 */
function docsOf(config: DemoConfig) {
  const root = join(import.meta.dirname, '..', '..', '..')
  const dir = config.docsDir ?? join(root, 'docs', 'site')
  return docsSite(dir, repositoryDocsBuild(root, dir))
}

/** `@service-sdk/demo-web`'s Vite build, when it exists. */

function builtWebDir(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('@service-sdk/demo-web/package.json')
    const dir = join(dirname(pkg), 'dist')
    readFileSync(join(dir, 'index.html'))
    return dir
  } catch {
    return undefined
  }
}

function listen(app: Hono, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port,
        hostname,
        // Large uploads take longer than Node's default 5-minute request timeout.
        serverOptions: { requestTimeout: 0 },
      },
      () => resolve(server),
    )
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new ConfigError([
            {
              variable: 'PORT',
              message: `port ${port} is in use on ${hostname}: choose another (PORT=0 picks a free one)`,
            },
          ]),
        )
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(
          new ConfigError([{ variable: 'HOST', message: `cannot listen on "${hostname}" (${error.code})` }]),
        )
      } else reject(error)
    })
  })
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    const http = server as import('node:http').Server
    const force = setTimeout(() => http.closeAllConnections?.(), 5000)
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    http.closeIdleConnections?.()
  })
}

const LOCAL = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '::', '::1'])

function callbackHost(host: string): string {
  return LOCAL.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
}

function pageUrl(host: string, port: number): string {
  return `http://${LOCAL.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`
}
