/**
 * A closed-loop load on keep-alive connections that stay open between calls: `send(n)` posts n
 * events, each connection sending its next request when the last is answered. For the
 * instruction count (../instructions.ts), which counts a window of a server's life: a load
 * generator opening new connections for the window (autocannon does, each run) makes the server
 * deoptimize and recompile its connection code inside it, a cost of the bench and not of a
 * steady stream of deliveries.
 */
import { Agent, request } from 'node:http'
import { eventBody } from '../event-body.ts'

export interface ClosedLoad {
  /** Posts `n` events and resolves when every one is answered 200; rejects on anything else. */
  send(n: number): Promise<void>
  close(): void
}

export function closedLoad(url: string, connections: number): ClosedLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const text = eventBody('ins')
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          res.resume()
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`)),
          )
        },
      )
      req.on('error', reject)
      // Under valgrind a request can take seconds; one unanswered for two minutes fails the run.
      req.setTimeout(120_000, () => req.destroy(new Error('no answer in 120 s')))
      req.end(text)
    })
  return {
    async send(n) {
      let next = 0
      const loop = async () => {
        while (next < n) {
          next++
          await post()
        }
      }
      await Promise.all(Array.from({ length: connections }, loop))
    },
    close: () => agent.destroy(),
  }
}
