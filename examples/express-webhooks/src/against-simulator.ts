import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpenClient } from '@service-sdk/open'
import { startSimulator } from '@service-sdk/simulator'
import { generateWebhookToken, sqliteStore } from '@service-sdk/webhooks'
import { createApp } from './app.ts'

/**
 * The whole loop on one machine: the simulator plays the service, this app receives. Subscribe the
 * app's URL, upload a file and delete it; the simulator's sender delivers the events (some twice),
 * and each is handled once. Returns the lines the handlers logged.
 */
export async function runAgainstSimulator(log: (line: string) => void = console.log): Promise<string[]> {
  const lines: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'express-webhooks-'))
  const sim = await startSimulator({ webhooks: { retry: { initialDelayMs: 10 } } })
  const token = generateWebhookToken()
  const { app, receiver } = createApp({
    token,
    store: sqliteStore(join(dir, 'webhooks.sqlite')),
    logger: {}, // quiet: only the handlers' lines
    log: (line) => {
      lines.push(line)
      log(line)
    },
  })
  const server = app.listen(0, '127.0.0.1')
  try {
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const open = createOpenClient({
      openUrl: sim.urls.open,
      token: sim.credentials.openToken,
      apiKey: sim.credentials.apiKey,
    })
    await open.events.subscribe({
      callbackUrl: `http://127.0.0.1:${port}/webhooks/${token}`,
      eventTypes: ['MATERIAL_INBOUND_COMPLETED', 'MATERIAL_DELETED'],
    })
    sim.control.webhooks.configure({ duplicateProbability: 0.5 })
    const { id } = await open
      .upload(Buffer.from('hello from the example'), { name: 'hello', extension: 'txt', orgId: '1001' })
      .done()
    sim.control.materials.delete([id])
    await sim.control.webhooks.idle() // every delivery answered
    await receiver.drain() // every stored event handled
    return lines
  } finally {
    server.closeAllConnections()
    server.close()
    await receiver.close()
    await sim.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
