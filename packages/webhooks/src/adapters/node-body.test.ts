import { createServer, type IncomingMessage, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebhookError } from '../errors.ts'
import { readCapped } from '../intake/body.ts'
import { nodeDelivery } from './node-body.ts'

const servers: Array<{ close(): void }> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A server whose requests are read with nodeDelivery + readCapped; each read's outcome is reported. */
async function serve(maxBytes: number) {
  const outcomes: Array<Promise<Buffer>> = []
  const server = createServer((req: IncomingMessage, res) => {
    const read = readCapped(nodeDelivery(req).body as AsyncIterable<Uint8Array>, maxBytes)
    outcomes.push(read)
    read.then(
      (body) => res.end(String(body.length)),
      (error: unknown) => res.writeHead(WebhookError.isInstance(error) ? (error.status ?? 500) : 500).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return { port: (server.address() as AddressInfo).port, outcomes }
}

/** Sends `parts` as a chunked body, one write each (a tick apart); `abort` destroys it after them. */
function send(port: number, parts: string[], abort = false): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request({ port, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', () => resolve(undefined))
    let i = 0
    const next = () => {
      if (i < parts.length) {
        req.write(parts[i++])
        setTimeout(next, 5)
      } else if (abort) req.destroy()
      else req.end()
    }
    next()
  })
}

describe('the body of a Node request, read whole', () => {
  it('joins a body that arrives in several chunks', async () => {
    const { port, outcomes } = await serve(1024)
    const parts = ['{"eventId":', '"e1","eventType"', ':"MATERIAL_DELETED"}']
    expect(await send(port, parts)).toBe(200)
    expect((await outcomes[0]!).toString()).toBe(parts.join(''))
  })

  it('fails, not resolves with a part, when the sender goes away mid-body', async () => {
    const { port, outcomes } = await serve(1024)
    await send(port, ['{"eventId":', '"e1"'], true)
    await expect.poll(() => outcomes.length).toBe(1)
    await expect(outcomes[0]).rejects.toBeDefined()
  })

  it('stops at the first chunk beyond the cap and still answers 413', async () => {
    const { port, outcomes } = await serve(10)
    expect(await send(port, ['12345678', '12345678', '12345678'])).toBe(413)
    await expect(outcomes[0]).rejects.toMatchObject({ code: 'payload_too_large' })
  })
})
