import type { WebhookReceiver } from '@service-sdk/webhooks'

/** What this app does with each event: replace the log lines with your own work. */
export function registerHandlers(receiver: WebhookReceiver, log: (line: string) => void): void {
  receiver.on('MATERIAL_INBOUND_COMPLETED', async (event, { key }) => {
    log(`inbound ${key}: materials ${(event.payload.materialIds ?? []).join(', ')}`)
  })
  receiver.on('MATERIAL_DELETED', async (event, { key }) => {
    log(`deleted ${key}: materials ${(event.payload.materialIds ?? []).join(', ')}`)
  })
  receiver.on('FOLDER_CONTENT_UPDATE', async (event, { key }) => {
    log(`folder ${event.folderId} ${event.type} ${key}: ${event.assets?.length ?? 0} asset(s)`)
  })
  // Handler failures (each attempt) and dead letters.
  receiver.onError((error) => log(`error ${error.code}: ${error.message}`))
}
