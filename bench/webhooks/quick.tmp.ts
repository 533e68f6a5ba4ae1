import { spawn } from 'node:child_process'
import autocannon from '/work/main/bench/node_modules/autocannon/autocannon.js'

const token = 'abcdefghijklmnopqrstuvwxyz0123456789'
const child = spawn(
  process.execPath,
  [
    ...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
    '/work/main/bench/webhooks/server.ts',
    process.argv[2],
    token,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
)
const port = await new Promise((r) =>
  child.stdout.on('data', (c) => {
    const m = /listening (\d+)/.exec(String(c))
    if (m) r(m[1])
  }),
)
let n = 0
const res = await autocannon({
  url: `http://127.0.0.1:${port}/webhooks/${token}`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  connections: 64,
  duration: 5,
  requests: [
    {
      setupRequest: (r) => ({
        ...r,
        body: `{"eventId":"q-${n++}","eventType":"MATERIAL_DELETED","eventTime":"1753946860000","payload":{"materialIds":[1951438207513255936],"deleteAction":"RECYCLE"}}`,
      }),
    },
  ],
})
console.log(
  process.argv[2],
  process.env.BENCH_PROCESSING,
  'rps',
  Math.round(res.requests.average),
  'p99',
  res.latency.p99,
  'non2xx',
  res.non2xx,
)
child.kill('SIGTERM')
await new Promise((r) => child.once('exit', r))
