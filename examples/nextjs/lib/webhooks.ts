import { mkdirSync } from 'node:fs'
import { createWebhookReceiver, sqliteStore, type WebhookReceiver } from '@service-sdk/webhooks'
import { env } from './env'

let receiver: WebhookReceiver | undefined

/**
 * The webhook receiver: events are stored (SQLite), acknowledged, then processed here with
 * retries. Subscribe `https://<your app>/api/webhooks/<SERVICE_WEBHOOK_TOKEN>` with open.events.subscribe /
 * open.folders.subscribe (or `service-sdk subscribe`).
 */
export function webhookReceiver(): WebhookReceiver {
  if (receiver) return receiver
  mkdirSync('.data', { recursive: true })
  receiver = createWebhookReceiver({
    token: env('SERVICE_WEBHOOK_TOKEN'),
    store: sqliteStore('.data/webhooks.sqlite'),
  })
  receiver.on('MATERIAL_ADDED_TO_FOLDER', async (event) => {
    console.log('assets added', event.payload.materialIds, 'to folders', event.payload.folderIds)
  })
  receiver.on('FOLDER_CONTENT_UPDATE', async (event) => {
    console.log('folder', event.folderId, event.type, `${event.assets?.length ?? 0} assets`)
  })
  receiver.onError((error) => console.error('webhook processing failed:', error.message))
  return receiver
}
