// Run: SERVICE_WEBHOOK_TOKEN=... PORT=3000 node src/server.ts
import { generateWebhookToken } from '@service-sdk/webhooks'
import { createApp } from './app.ts'

const token = process.env.SERVICE_WEBHOOK_TOKEN
if (!token) {
  console.error(
    `Set SERVICE_WEBHOOK_TOKEN (keep it secret), for example: SERVICE_WEBHOOK_TOKEN=${generateWebhookToken()}`,
  )
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)
const { app, receiver } = createApp({ token })
const server = app.listen(port, () => {
  console.log(`Receiving on http://localhost:${port}/webhooks/<SERVICE_WEBHOOK_TOKEN>`)
})

// Stop taking requests, let the handlers in flight finish, close the store.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close()
    void receiver.close().then(() => process.exit(0))
  })
}
