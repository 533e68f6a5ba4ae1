/**
 * The receive path without HTTP, two builds of @service-sdk/webhooks side by side: 64 callers
 * push N events through `receiver.receive()` into a fresh sqliteStore (synchronous FULL), then
 * (PROCESSING=1) the receiver processes them; process CPU per event (main thread, SQLite thread
 * and GC threads together); PROCESSING=drain stores all N first and measures only their processing
 * (`drain()`). The builds alternate in one process, R rounds each, medians: load
 * from elsewhere on a shared machine hits both alike, so the ratio holds where the µs do not.
 *
 *     BASE_DIST=/path/to/other/packages/webhooks/dist node bench/webhooks/store-ab.ts
 *     BASE_DIST=... PROCESSING=1 N=10000 R=4 node bench/webhooks/store-ab.ts
 *     BASE_DIST=... PROCESSING=drain R=7 node bench/webhooks/store-ab.ts
 *
 * BASE_DIST is a built `dist/` of the package at another commit (inside a checkout, so that its
 * imports resolve), compared with this checkout's build.
 *
 * ONLY=base or ONLY=this runs one build alone (R=1: one round), to count its instructions on a
 * shared machine, both threads together (the difference of two N gives the count per event):
 *
 *     ONLY=this N=3000 R=1 PROCESSING=1 valgrind --tool=callgrind --trace-children=no node bench/webhooks/store-ab.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventBody } from './event-body.ts'

type Webhooks = typeof import('@service-sdk/webhooks')
const baseDist = process.env.BASE_DIST
if (!baseDist) throw new Error('BASE_DIST: the dist/ directory of the build to compare with')
const only = process.env.ONLY
const builds: Array<[string, Webhooks]> = []
if (only !== 'this') builds.push(['base', (await import(join(baseDist, 'index.js'))) as Webhooks])
if (only !== 'base') builds.push(['this', await import('@service-sdk/webhooks')])
const N = Number(process.env.N ?? 10_000)
const ROUNDS = Number(process.env.R ?? 4)
const PROCESSING = process.env.PROCESSING === '1' || process.env.PROCESSING === 'drain'
const DRAIN_ONLY = process.env.PROCESSING === 'drain'
const token = 'a'.repeat(43)

const cpuMicros = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

async function run(webhooks: Webhooks, file: string): Promise<number> {
  const receiver = webhooks.createWebhookReceiver({
    token,
    store: webhooks.sqliteStore(file),
    processing: DRAIN_ONLY ? { autoStart: false } : PROCESSING ? {} : false,
  })
  receiver.onAny(() => {})
  const delivery = (text: string) => ({
    method: 'POST',
    url: `/webhooks/${token}`,
    contentType: 'application/json',
    body: text,
  })
  await receiver.receive(delivery(eventBody('ab'))) // the thread started, the statements prepared
  const texts = Array.from({ length: N }, () => eventBody('ab'))
  let before = cpuMicros()
  let next = 0
  const caller = async () => {
    while (next < N) {
      const receipt = await receiver.receive(delivery(texts[next++]!))
      if (receipt.status !== 200) throw new Error(`refused: ${receipt.body}`)
    }
  }
  await Promise.all(Array.from({ length: 64 }, caller))
  if (DRAIN_ONLY) before = cpuMicros()
  if (PROCESSING) await receiver.drain()
  const perEvent = (cpuMicros() - before) / N
  await receiver.close()
  return perEvent
}

const dir = mkdtempSync(join(tmpdir(), 'webhooks-store-ab-'))
const figures = new Map<string, number[]>(builds.map(([name]) => [name, []]))
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, webhooks] of builds)
      figures.get(name)!.push(await run(webhooks, join(dir, `${name}-${round}.db`)))
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
if (only) {
  console.log(`${only}: CPU per event ${median(figures.get(only)!).toFixed(1)} µs`)
  process.exit(0)
}
const [base, current] = [median(figures.get('base')!), median(figures.get('this')!)]
console.log(
  `${DRAIN_ONLY ? 'processing only (drain)' : `receive() + sqliteStore${PROCESSING ? ' + processing' : ''}`}, ${N} events, 64 callers: CPU per event base ${base.toFixed(1)} µs [${figures
    .get('base')!
    .map((v) => v.toFixed(0))
    .join(', ')}], this ${current.toFixed(1)} µs [${figures
    .get('this')!
    .map((v) => v.toFixed(0))
    .join(', ')}], ratio ${(current / base).toFixed(2)}`,
)
