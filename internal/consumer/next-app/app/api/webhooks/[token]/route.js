// The webhooks README's Next.js route, as an integrator writes it.
import { createWebhookReceiver, sqliteStore } from '@service-sdk/webhooks'
import { webhooksNext } from '@service-sdk/webhooks/next'

export const runtime = 'nodejs'
export const { POST } = webhooksNext(() =>
  createWebhookReceiver({ token: process.env.WEBHOOK_TOKEN, store: sqliteStore('./webhooks.sqlite') }),
)
