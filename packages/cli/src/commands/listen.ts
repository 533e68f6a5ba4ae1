import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { WebhookEvent } from '@service-sdk/webhooks'
import type { Command } from 'commander'
import { stateDir } from '../config.ts'
import { type Context, contextOf } from '../context.ts'
import { CliError } from '../errors.ts'
import { csv, port, httpUrl as url, wholeNumber } from '../flags.ts'
import { pc, withoutToken } from '../output.ts'

interface ListenOptions {
  port: number
  host: string
  forwardTo?: string
  events?: string[]
  folders?: string[]
  publicUrl?: string
  maxAttempts: number
}

/** Forwarding attempts: with backoff up to 30 s, 1000 attempts keep an event for about 8 hours. */
const MAX_ATTEMPTS = 1000

export function listenCommand(program: Command): void {
  program
    .command('listen')
    .description(
      'receive webhooks locally on a durable inbox, print them, and forward them to your endpoint with retries',
    )
    .option('--port <port>', 'local port of the receiver', port, 4242)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option(
      '--forward-to <url>',
      'POST each event (the body as received) to this URL; retried until it answers 2xx',
      url,
    )
    .option(
      '--events <codes>',
      'subscribe to these asset events while listening (comma-separated; needs SERVICE_API_KEY)',
      csv,
    )
    .option('--folders <ids>', 'subscribe to these folders while listening (comma-separated)', csv)
    .option(
      '--public-url <url>',
      'the address the service reaches this receiver at (a tunnel); default: the local address',
      url,
    )
    .option(
      '--max-attempts <n>',
      `forwarding attempts per event before it is a dead letter, 1 to ${MAX_ATTEMPTS}`,
      wholeNumber(1, MAX_ATTEMPTS),
      8,
    )
    .addHelpText(
      'after',
      `
Events are stored in $XDG_STATE_HOME/service-sdk/listen.sqlite before they are acknowledged, so none is
lost if your endpoint is down or this command stops; they are forwarded when it runs again.
With --events or --folders it subscribes the receiver's URL, and unsubscribes on exit.
The URL's last segment is its secret token: it is never printed (<token> stands for it); the token
is in $XDG_STATE_HOME/service-sdk/listen-token.

Examples:
  service-sdk listen --events MATERIAL_DELETED,MATERIAL_INBOUND_COMPLETED --forward-to http://localhost:3000/webhooks
  service-sdk listen --folders 1753946835010000001 --public-url https://abc.tunnel.example --json`,
    )
    .action(async (options: ListenOptions, command: Command) => {
      const ctx = contextOf(command)
      await listen(ctx, options)
    })
}

function tokenOf(dir: string, generateWebhookToken: () => string): string {
  const file = join(dir, 'listen-token')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    const token = generateWebhookToken()
    writeFileSync(file, token, { mode: 0o600 })
    return token
  }
}

async function listen(ctx: Context, options: ListenOptions): Promise<void> {
  const subscribing = (options.events?.length ?? 0) > 0 || (options.folders?.length ?? 0) > 0
  const open = subscribing ? await ctx.open({ needsApiKey: true }) : undefined
  const dir = stateDir()
  const { createWebhookReceiver, generateWebhookToken, sqliteStore } = await import('@service-sdk/webhooks')
  const { webhooksNode } = await import('@service-sdk/webhooks/node')
  const token = inStateDir(dir, () => {
    mkdirSync(dir, { recursive: true })
    return tokenOf(dir, generateWebhookToken)
  })
  const receiver = createWebhookReceiver({
    token,
    store: sqliteStore(join(dir, 'listen.sqlite')),
    processing: {
      retry: { maxRetries: options.maxAttempts - 1, initialDelayMs: 500, maxDelayMs: 30_000 },
      pollIntervalMs: 200,
    },
  })
  const print = printer(ctx)
  receiver.onAny(async (event, { key, attempt }) => {
    const raw = (await receiver.events.get(key))?.body ?? '{}'
    if (attempt === 1) print.event(event, key, raw)
    if (!options.forwardTo) return
    const answer = await forward(options.forwardTo, raw)
    print.forward(key, attempt, answer)
    if (!answer.ok)
      throw new CliError(
        'failed',
        `${withoutToken(options.forwardTo)} answered ${answer.status ?? answer.error}`,
      )
  })
  receiver.onError((error) => {
    if ('deadLettered' in error && error.deadLettered) print.note(`${pc.red('✗')} gave up: ${error.message}`)
  })
  const server = createServer(webhooksNode(receiver))
  await listening(server, options).catch(async (error: unknown) => {
    await receiver.close().catch(() => {})
    throw error
  })
  const local = `http://${options.host}:${(server.address() as AddressInfo).port}/webhooks/${token}`
  const callbackUrl = options.publicUrl ? `${options.publicUrl.replace(/\/+$/, '')}/webhooks/${token}` : local
  const subscriptions = { folderIds: options.folders ?? [], eventTypes: options.events ?? [] }
  if (open && subscriptions.folderIds.length)
    await open.folders.subscribe({ folderIds: subscriptions.folderIds, callbackUrl })
  if (open && subscriptions.eventTypes.length)
    await open.events.subscribe({ eventTypes: subscriptions.eventTypes as never, callbackUrl })
  // Listening for the signals before saying "ready": a stop right after it still unsubscribes.
  const stopped = untilSignal()
  print.ready(callbackUrl, join(dir, 'listen-token'), options, subscribing)
  await stopped
  if (open && subscriptions.folderIds.length)
    await open.folders.unsubscribe({ folderIds: subscriptions.folderIds, callbackUrl }).catch(() => {})
  if (open && subscriptions.eventTypes.length)
    await open.events
      .unsubscribe({ eventTypes: subscriptions.eventTypes as never, callbackUrl })
      .catch(() => {})
  await close(server)
  await receiver.close()
  print.note(pc.dim(subscribing ? 'Unsubscribed; stopped.' : 'Stopped.'))
}

/** Runs `fn`, which reads or writes the state directory; a failure says which directory. */
function inStateDir<T>(dir: string, fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    throw new CliError(
      'config',
      `Cannot write the state directory ${dir} (${code})`,
      'Set XDG_STATE_HOME to a directory this user can write',
    )
  }
}

async function listening(server: Server, options: ListenOptions): Promise<void> {
  const { port, host } = options
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error.code, host, port)))
    server.listen(port, host, resolve)
  })
}

function listenError(code: string | undefined, host: string, port: number): CliError {
  switch (code) {
    case 'EADDRINUSE':
      return new CliError('failed', `Port ${port} is in use`, 'Choose another with --port')
    case 'EACCES':
      return new CliError(
        'failed',
        `Listening on port ${port} needs privileges this user does not have`,
        'Choose a port above 1023 with --port',
      )
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(
        'usage',
        `${host} is not an address of this machine (${code})`,
        'Check --host (default 127.0.0.1; 0.0.0.0 for every interface)',
      )
    default:
      return new CliError('failed', `Could not listen on ${host}:${port} (${code ?? 'error'})`)
  }
}

interface Answer {
  ok: boolean
  status?: number
  error?: string
  ms: number
}

async function forward(target: string, body: string): Promise<Answer> {
  const started = Date.now()
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'service-sdk-listen' },
      body,
      signal: AbortSignal.timeout(10_000),
    })
    await response.body?.cancel().catch(() => {})
    return { ok: response.ok, status: response.status, ms: Date.now() - started }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    return {
      ok: false,
      error: cause ?? (error instanceof Error ? error.name : 'error'),
      ms: Date.now() - started,
    }
  }
}

function printer(ctx: Context) {
  const line = (value: unknown) =>
    process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`)
  return {
    event(event: WebhookEvent, key: string, raw: string) {
      if (ctx.out.json) {
        // The body as received, so ids keep every digit.
        line(
          `{"type":"event","eventType":${JSON.stringify(event.eventType)},"key":${JSON.stringify(key)},"body":${raw}}`,
        )
        return
      }
      line(
        `${pc.dim(new Date().toLocaleTimeString())} ${pc.cyan(event.eventType)} ${describe(event)} ${pc.dim(key)}`,
      )
    },
    forward(key: string, attempt: number, answer: Answer) {
      if (ctx.out.json) return line({ type: 'forward', key, attempt, ...answer })
      const what = answer.status ? `[${answer.status}]` : `[${answer.error}]`
      line(
        `  ${answer.ok ? pc.green('→') : pc.red('→')} ${answer.ok ? pc.green(what) : pc.red(what)} attempt ${attempt} ${pc.dim(`${answer.ms} ms`)}`,
      )
    },
    ready(callbackUrl: string, tokenFile: string, options: ListenOptions, subscribed: boolean) {
      // A token is a receiver's secret: this one's, and that of an endpoint forwarded to (your
      // app's /webhooks/<token>). The URLs are shown with <token> in its place.
      const shown = withoutToken(callbackUrl)
      if (ctx.out.json)
        return line({
          type: 'ready',
          callbackUrl: shown,
          tokenFile,
          forwardTo: options.forwardTo ? withoutToken(options.forwardTo) : null,
          subscribed,
        })
      process.stderr.write(
        `${pc.green('Ready.')} Receiving at ${shown}${subscribed ? ' (subscribed)' : ''}\n` +
          `${options.forwardTo ? `Forwarding to ${withoutToken(options.forwardTo)}\n` : ''}Ctrl-C stops${subscribed ? ' and unsubscribes' : ''}.\n`,
      )
    },
    note: (text: string) => process.stderr.write(`${text}\n`),
  }
}

function describe(event: WebhookEvent): string {
  const e = event as unknown as {
    folderId?: string
    type?: string
    assets?: unknown[]
    payload?: { materialIds?: string[] }
  }
  if (e.folderId) return `folder ${e.folderId} ${e.type ?? ''} (${e.assets?.length ?? 0} assets)`
  const ids = e.payload?.materialIds
  return ids ? `assets ${ids.join(', ')}` : ''
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
