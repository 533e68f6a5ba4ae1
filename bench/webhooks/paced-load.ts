/**
 * An open-loop load at a fixed rate, for latency at a given offered load. Request i is due at
 * start + i / rate whatever happened to the ones before it, and its latency counts from that
 * moment (time spent waiting for a free connection included), so a server that falls behind
 * shows it as latency and as fewer requests completed, never as a smaller offered load.
 *
 * Why not autocannon's `overallRate` (used for the max-throughput runs, where it is the right
 * tool): it gives each connection a budget per wall-clock second, sent back to back as soon as
 * the second starts, one request at a time per connection. The load arrives in bursts at every
 * second's start; a connection whose answers are slower than its share stops short of it
 * without saying so, and the requests it never sent have no latency (coordinated omission):
 * "p99 26 ms" next to half the offered rate achieved. Hand-written because no maintained npm
 * load generator paces an open loop (wrk2 and k6 are not npm packages).
 */
import { Agent, request } from 'node:http'

export interface PacedResult {
  offered: number
  /** Requests answered with 2xx per second of the run. */
  achieved: number
  p50: number
  p99: number
  ok: number
  bad: number
  /**
   * What the bad ones got, with counts: a status code, `no answer (<error code>)`, `no answer
   * (closed before the answer)`, or `no answer in 10 s` (abandoned).
   */
  why: Record<string, number>
}

export async function pacedLoad(options: {
  /** One or more servers; requests go to each in turn. */
  urls: string[]
  rate: number
  seconds: number
  /** Keep-alive connections in all, split between the servers. */
  connections: number
  body: () => string
}): Promise<PacedResult> {
  const { urls, rate, seconds } = options
  const agents = urls.map(
    () =>
      new Agent({ keepAlive: true, maxSockets: Math.max(1, Math.round(options.connections / urls.length)) }),
  )
  const total = Math.round(rate * seconds)
  const latencies: number[] = []
  const why: Record<string, number> = {}
  let sent = 0
  let answered = 0
  const start = performance.now()
  await new Promise<void>((resolve) => {
    const done = () => {
      if (++answered === total) resolve()
    }
    const send = (i: number) => {
      const due = start + (i * 1000) / rate
      const url = new URL(urls[i % urls.length]!)
      const text = options.body()
      let settled = false
      let abandoned = false
      /** `failure`: why there is no answer (an error's code, or the connection closed first). */
      const finish = (status: number | undefined, failure?: string) => {
        if (settled) return
        settled = true
        clearTimeout(abandon)
        if (status === 200) latencies.push(performance.now() - due)
        else {
          const reason =
            status !== undefined ? String(status) : abandoned ? 'no answer in 10 s' : `no answer (${failure})`
          why[reason] = (why[reason] ?? 0) + 1
        }
        done()
      }
      const req = request(
        url,
        {
          method: 'POST',
          agent: agents[i % urls.length],
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          res.resume()
          res.on('end', () => finish(res.statusCode))
        },
      )
      // A request unanswered 10 s after it was due (waiting for a connection included) is
      // abandoned and counted as failed: an overloaded server cannot stretch the run without bound.
      const abandon = setTimeout(() => {
        abandoned = true
        req.destroy()
      }, 10_000)
      req.on('error', (error: NodeJS.ErrnoException) => finish(undefined, error.code ?? error.message))
      req.on('close', () => finish(undefined, 'closed before the answer'))
      req.end(text)
    }
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000))
      while (sent < due) send(sent++)
      if (sent >= total) clearInterval(timer)
    }, 1)
  })
  const elapsed = (performance.now() - start) / 1000
  for (const agent of agents) agent.destroy()
  latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return {
    offered: rate,
    achieved: latencies.length / Math.max(seconds, elapsed),
    p50: at(0.5),
    p99: at(0.99),
    ok: latencies.length,
    bad: Object.values(why).reduce((a, n) => a + n, 0),
    why,
  }
}
