/**
 * Profiles one server of the bench (server.ts) under autocannon, for finding the receive path's
 * per-request costs. Prints the server's CPU time per request; with PROFILE_DIR set, the server
 * (and its SQLite thread) writes V8 CPU profiles there (`.cpuprofile`, open in Chrome DevTools),
 * and a table per thread of where its sampled time goes by part (measure/profile-parts.ts: the
 * SDK, the pg client and its socket writes, HTTP, the garbage collector...).
 *
 *     node bench/webhooks/profile.ts receiver|noop|pg [seconds]
 *     PROFILE_DIR=/tmp/prof BENCH_THREAD=main node bench/webhooks/profile.ts receiver 5
 *     PROFILE_RATE=1000 node bench/webhooks/profile.ts receiver 5    (then an open-loop run at that rate: p50/p99)
 *
 * `pg` needs POSTGRES_URL (default the local trust database `test`) and uses a schema it drops.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { generateWebhookToken } from '@service-sdk/webhooks'
import autocannon from 'autocannon'
import { listeningUrl } from '../lib/listening.ts'
import { dropSchema } from '../lib/postgres.ts'
import { eventBody } from './event-body.ts'
import { printProfileParts } from './measure/profile-parts.ts'
import { pacedLoad } from './paced-load.ts'

const mode = (process.argv[2] ?? 'receiver') as 'receiver' | 'noop' | 'pg'
const seconds = Number(process.argv[3] ?? 5)
const token = generateWebhookToken()
const pgUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const schema = `bench_profile_${randomBytes(4).toString('hex')}`
const profileArgs = process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : []

const child = spawn(
  process.execPath,
  [...profileArgs, join(import.meta.dirname, 'server.ts'), mode, token, pgUrl, schema],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
const url = await listeningUrl(child)

const cpu = async () => ((await (await fetch(`${url}/cpu`)).json()) as { micros: number }).micros
const run = (duration: number) =>
  autocannon({
    url: `${url}/webhooks/${token}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: 64,
    duration,
    requests: [
      { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: eventBody('profile') }) },
    ],
  })

const warm = await run(1)
const before = await cpu()
const result = await run(seconds)
if (mode === 'receiver' && process.env.BENCH_PROCESSING !== '0') {
  // Processing of what was stored counts too: wait for the backlog.
  // /backlog, not /status: counts() reads the whole status index, CPU charged to the server.
  while (((await (await fetch(`${url}/backlog`)).json()) as { backlog: boolean }).backlog)
    await new Promise((resolve) => setTimeout(resolve, 100))
}
const used = (await cpu()) - before
console.log(
  `${mode}: ${Math.round(result.requests.average)} req/s, ${(used / result['2xx']).toFixed(1)} µs CPU per request, non-2xx ${result.non2xx + result.errors}`,
)
let pacedRequests = 0
if (process.env.PROFILE_RATE) {
  const paced = await pacedLoad({
    urls: [`${url}/webhooks/${token}`],
    rate: Number(process.env.PROFILE_RATE),
    seconds,
    connections: 64,
    body: () => eventBody('profile'),
  })
  console.log(
    `${mode}: ${paced.offered} req/s offered, ${Math.round(paced.achieved)} achieved, p50 ${paced.p50} ms, p99 ${paced.p99} ms, non-2xx ${paced.bad}`,
  )
  pacedRequests = Math.round(paced.achieved * seconds)
}
child.kill('SIGTERM')
await new Promise((resolve) => child.once('exit', resolve))
if (mode === 'pg') await dropSchema(pgUrl, schema)
// The profiles cover the whole process, warm-up included: per request of every request sent.
if (process.env.PROFILE_DIR)
  printProfileParts(process.env.PROFILE_DIR, child.pid!, warm['2xx'] + result['2xx'] + pacedRequests)
