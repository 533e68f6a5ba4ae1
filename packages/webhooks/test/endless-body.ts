// A sender that never stops: a chunked body written until the server closes the connection.
import { connect } from 'node:net'

/** Bytes written at most before giving up on the server closing the connection. */
const LIMIT = 256 * 1024 * 1024

export interface EndlessOutcome {
  /** The status the server answered with (0 if none). */
  status: number
  /** Bytes written until the connection closed, or LIMIT. */
  sent: number
  /** Whether the server closed the connection (false: it kept reading until LIMIT or 10 s). */
  closed: boolean
}

/**
 * Sends `method url` with `Transfer-Encoding: chunked` and 16 KiB chunks until the server closes
 * the connection, LIMIT bytes were written, or 10 s passed.
 */
export function endlessBody(url: string, method = 'POST'): Promise<EndlessOutcome> {
  const { hostname, port, pathname } = new URL(url)
  const socket = connect(Number(port), hostname)
  const chunk = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 0x20), Buffer.from('\r\n')])
  let sent = 0
  let response = ''
  return new Promise((resolve) => {
    const finish = (closed: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0), sent, closed })
    }
    const timer = setTimeout(() => finish(false), 10_000)
    socket.on('data', (data: Buffer) => {
      response += data.toString('latin1')
    })
    socket.on('close', () => finish(true))
    socket.on('error', () => {}) // 'close' follows
    const pump = () => {
      while (!socket.destroyed && sent < LIMIT) {
        sent += chunk.length
        if (!socket.write(chunk)) return void socket.once('drain', pump)
      }
      if (sent >= LIMIT) finish(false)
    }
    socket.on('connect', () => {
      socket.write(
        `${method} ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      )
      pump()
    })
  })
}
