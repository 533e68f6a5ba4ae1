import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import type { RequestContext } from '../platform.ts'
import { bytesBody } from './bytes-body.ts'
import { createAgents, createNodeHttp } from './http.ts'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  server?.close()
  server = undefined
})

/** A server that records each request's method, path and body, then answers (or never does). */
async function listen(host: string, answer = true) {
  const seen: Array<{ method: string | undefined; url: string | undefined; body: string }> = []
  server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    seen.push({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString() })
    if (answer) res.writeHead(200, { 'x-oss-hash-crc64ecma': '42' }).end()
  })
  server.listen(0, host)
  await once(server, 'listening')
  return { port: (server.address() as AddressInfo).port, seen }
}

const context = (signal = new AbortController().signal): RequestContext => ({
  signal,
  timeoutMs: 5_000,
  onBodyBytes: () => {},
})

describe('the Node HTTP layer', () => {
  test('sends to the URL it is given, an IPv6 literal too, with path and query', async () => {
    for (const [host, name] of [
      ['127.0.0.1', '127.0.0.1'],
      ['::1', '[::1]'],
    ] as const) {
      const { port, seen } = await listen(host).catch(() => ({ port: 0, seen: [] }))
      if (port === 0) continue // no IPv6 on this machine
      const http = createNodeHttp(createAgents())
      const url = `http://${name}:${port}/dir/a%20b.bin?partNumber=2&uploadId=U`
      const body = bytesBody([new TextEncoder().encode('hello')])
      const response = await http.request(url, {
        method: 'PUT',
        headers: { 'Content-Length': '5' },
        stream: body,
        ctx: context(),
      })
      expect(response.status).toBe(200)
      expect(response.headers['x-oss-hash-crc64ecma']).toBe('42')
      expect(seen).toEqual([{ method: 'PUT', url: '/dir/a%20b.bin?partNumber=2&uploadId=U', body: 'hello' }])
      server?.closeAllConnections()
      server?.close()
    }
  })

  test("a PUT is cut when its upload's signal aborts: the request rejects as aborted", async () => {
    const { port } = await listen('127.0.0.1', false)
    const http = createNodeHttp(createAgents())
    const stop = new AbortController()
    const sent = http.request(`http://127.0.0.1:${port}/k`, {
      method: 'PUT',
      headers: { 'Content-Length': '1' },
      stream: bytesBody([new Uint8Array(1)]),
      ctx: context(stop.signal),
    })
    setTimeout(() => stop.abort(), 50)
    await expect(sent).rejects.toMatchObject({ name: 'AbortError', status: -1 })
  })
})
