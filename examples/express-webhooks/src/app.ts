import {
  createWebhookReceiver,
  sqliteStore,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookStore,
} from '@service-sdk/webhooks'
import { keepRawBody, webhooksExpress } from '@service-sdk/webhooks/express'
import express, { type Express } from 'express'
import { registerHandlers } from './handlers.ts'

export interface AppOptions {
  /** The capability token: the last segment of the URL subscribed at the service. */
  token: string
  /** Default: SQLite in ./webhooks.sqlite. */
  store?: WebhookStore
  /** What the handlers report. Default: console.log. */
  log?: (line: string) => void
  /** The receiver's own log (refusals, duplicates, retries). Default: console. */
  logger?: WebhookReceiverOptions['logger']
}

export interface App {
  app: Express
  receiver: WebhookReceiver
}

export function createApp(options: AppOptions): App {
  const receiver = createWebhookReceiver({
    token: options.token,
    store: options.store ?? sqliteStore('./webhooks.sqlite'),
    logger: options.logger ?? console,
  })
  registerHandlers(receiver, options.log ?? console.log)

  const app = express()
  // The webhook route reads the raw body itself: it comes before any body parser.
  app.post('/webhooks/:token', webhooksExpress(receiver))
  // A readiness probe for the load balancer: 503 while the store cannot be reached.
  app.get('/healthz', async (_req, res) => {
    const readiness = await receiver.readiness()
    res.status(readiness.ready ? 200 : 503).json(readiness)
  })
  // The rest of your API; `keepRawBody` would let a webhook route mounted after it work too.
  app.use(express.json({ verify: keepRawBody }))
  return { app, receiver }
}
