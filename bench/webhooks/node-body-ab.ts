/**
 * Reading a Node request's body, two ways in one server process: `/iterator` hides the body's
 * `readWhole` so readCapped iterates it (`req.iterator()`, as before), `/events` lets it read
 * itself through 'data' events (node-body.ts). Server CPU per request for each, alternating R
 * rounds under autocannon, medians; the ratio is what holds on a shared machine.
 *
 *     node bench/webhooks/node-body-ab.ts [seconds per round]
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import { nodeDelivery } from '../../packages/webhooks/src/adapters/node-body.ts'
import { readCapped } from '../../packages/webhooks/src/intake/body.ts'
import { listeningUrl } from '../lib/listening.ts'

if (process.argv[2] === 'server') {
  const server = createServer(async (req, res) => {
    if (req.url === '/cpu') {
      const { user, system } = process.cpuUsage()
      res.end(JSON.stringify({ micros: user + system }))
      return
    }
    const body = nodeDelivery(req).body as AsyncIterable<Uint8Array>
    const source =
      req.url === '/iterator' ? { [Symbol.asyncIterator]: () => body[Symbol.asyncIterator]() } : body
    const bytes = await readCapped(source, 1024 * 1024)
    res.writeHead(200).end(String(bytes.length))
  })
  server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
} else {
  const seconds = Number(process.argv[2] ?? 3)
  const ROUNDS = Number(process.env.R ?? 4)
  const child = spawn(process.execPath, [import.meta.filename, 'server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await listeningUrl(child)
  const cpu = async () => ((await (await fetch(`${url}/cpu`)).json()) as { micros: number }).micros
  const body = `{"eventId":"x","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[1951438207513255936],"deleteAction":"RECYCLE","materials":[{"materialId":1951438207513255936,"name":"hero","materialType":1,"extension":"png","tagIds":[17],"tagNames":["homepage"],"folderIds":[1949870453162360832],"ownerUserId":1673603133161799680,"createUserId":1673603133161799680}]}}`
  const run = async (path: string) => {
    const before = await cpu()
    const result = await autocannon({
      url: url + path,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      connections: 32,
      duration: seconds,
    })
    return ((await cpu()) - before) / result['2xx']
  }
  await run('/iterator') // warm-up
  await run('/events')
  const figures: Record<'iterator' | 'events', number[]> = { iterator: [], events: [] }
  for (let i = 0; i < ROUNDS; i++) {
    figures.iterator.push(await run('/iterator'))
    figures.events.push(await run('/events'))
  }
  child.kill()
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const [before, after] = [median(figures.iterator), median(figures.events)]
  console.log(
    `server CPU per request: iterator ${before.toFixed(1)} µs [${figures.iterator.map((v) => v.toFixed(1))}], events ${after.toFixed(1)} µs [${figures.events.map((v) => v.toFixed(1))}], ratio ${(after / before).toFixed(3)}`,
  )
}
