import type { AddressInfo } from 'node:net'
import { createServer, type Socket, connect as tcpConnect } from 'node:net'

/**
 * A TCP proxy between processes and PostgreSQL, for fault injection: `cut()` ends every
 * connection, `delay(ms)` slows every chunk, `stall(ms)` holds all traffic then lets it through
 * (a database that stops answering for a while), `blackHole(ms)` drops traffic, then ends the
 * connections it broke (packets lost for good, as in a network partition).
 */
export async function tcpProxy(target: { host: string; port: number }) {
  let delayMs = 0
  let holdUntil = 0
  let dropUntil = 0
  const links = new Set<{ a: Socket; b: Socket; broken: boolean }>()

  function forward(link: { a: Socket; b: Socket; broken: boolean }, from: Socket, to: Socket): void {
    let last = 0
    from.on('data', (chunk: Buffer) => {
      const now = Date.now()
      if (now < dropUntil) {
        link.broken = true
        return
      }
      const at = Math.max(now + delayMs, holdUntil, last)
      last = at
      if (at <= now) to.write(chunk)
      else setTimeout(() => to.writable && to.write(chunk), at - now)
    })
  }

  const server = createServer((client) => {
    const upstream = tcpConnect(target.port, target.host)
    const link = { a: client, b: upstream, broken: Date.now() < dropUntil }
    links.add(link)
    const close = () => {
      links.delete(link)
      client.destroy()
      upstream.destroy()
    }
    for (const s of [client, upstream]) {
      s.on('error', close)
      s.on('close', close)
    }
    forward(link, client, upstream)
    forward(link, upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    cut(): void {
      for (const { a, b } of links) {
        a.destroy()
        b.destroy()
      }
    },
    delay(ms: number): void {
      delayMs = ms
    },
    stall(ms: number): void {
      holdUntil = Date.now() + ms
    },
    blackHole(ms: number): void {
      dropUntil = Date.now() + ms
      setTimeout(() => {
        for (const link of links) {
          if (!link.broken) continue
          link.a.destroy()
          link.b.destroy()
        }
      }, ms).unref()
    },
    async close(): Promise<void> {
      this.cut()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
