import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createServer, type Socket, connect as tcpConnect } from 'node:net'

interface Link {
  /** The client's side. */
  a: Socket
  /** The server's side. */
  b: Socket
  broken: boolean
}

/** What the server sent while replies were held, and the connections it closed meanwhile. */
interface Held {
  chunks: Map<Link, Buffer[]>
  closed: Set<Link>
  serverClosed: PromiseWithResolvers<void>
}

/**
 * A TCP proxy between processes and PostgreSQL, for fault injection: `cut()` ends every
 * connection, `delay(ms)` slows every chunk, `stall(ms)` holds all traffic then lets it through
 * (a database that stops answering for a while), `blackHole(ms)` drops traffic, then ends the
 * connections it broke (packets lost for good, as in a network partition). `holdReplies()` keeps
 * what the server sends until `flush()` writes each connection's bytes at once: the client reads
 * messages the server sent apart (a statement's end, then a FATAL) in one chunk, in one turn.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  let delayMs = 0
  let holdUntil = 0
  let dropUntil = 0
  let held: Held | undefined
  const links = new Set<Link>()

  function forward(link: Link, from: Socket, to: Socket): void {
    let last = 0
    from.on('data', (chunk: Buffer) => {
      if (held && from === link.b) {
        held.chunks.set(link, [...(held.chunks.get(link) ?? []), chunk])
        return
      }
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
    const link: Link = { a: client, b: upstream, broken: Date.now() < dropUntil }
    links.add(link)
    const close = () => {
      links.delete(link)
      client.destroy()
      upstream.destroy()
    }
    // While replies are held, the server's closing waits for them too.
    const serverClose = () => {
      if (!held) return close()
      held.closed.add(link)
      held.serverClosed.resolve()
    }
    client.on('error', close)
    client.on('close', close)
    upstream.on('error', serverClose)
    upstream.on('close', serverClose)
    forward(link, client, upstream)
    forward(link, upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    /** Connections open (one the server closed while replies were held stays open until its client closes it). */
    get connections(): number {
      return links.size
    },
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
    /** Holds every server reply; `serverClosed` resolves once the server closed a connection meanwhile. */
    holdReplies(): { serverClosed: Promise<void>; flush(): void } {
      const hold: Held = { chunks: new Map(), closed: new Set(), serverClosed: Promise.withResolvers() }
      held = hold
      return {
        serverClosed: hold.serverClosed.promise,
        flush() {
          held = undefined
          for (const [link, chunks] of hold.chunks) link.a.write(Buffer.concat(chunks))
          for (const link of hold.closed) link.a.end()
        },
      }
    },
    async close(): Promise<void> {
      this.cut()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/**
 * A proxy to the PostgreSQL at `databaseUrl`, and that database's URL through it, its connections
 * named `<prefix>_<random>` (`app`) so a test can find and terminate exactly its own backends.
 */
export async function proxiedPostgres(databaseUrl: string, prefix: string) {
  const target = new URL(databaseUrl)
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const app = `${prefix}_${randomBytes(4).toString('hex')}`
  const url = new URL(databaseUrl)
  url.host = `127.0.0.1:${proxy.port}`
  url.searchParams.set('application_name', app)
  return { proxy, app, url: url.href }
}
