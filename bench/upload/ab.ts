/**
 * A/B of `uploadMany` between two builds of @service-sdk/open in one process: the workspace's
 * build (B) and another commit's (A, its `dist/index.js`), taking turns on batches of 100 small
 * files against the simulator in a process of its own. Both run under the same load at the same
 * moments, which separate processes on a shared machine do not: there, run-to-run spread was
 * larger than the differences measured. Prints CPU (the uploader's and the simulator's) and wall
 * time per file, and B / A.
 *
 *   git worktree add /tmp/upbase <commit> && (cd /tmp/upbase && pnpm install && pnpm --filter @service-sdk/open... build)
 *   pnpm --filter @service-sdk/open build
 *   node bench/upload/ab.ts /tmp/upbase/packages/open/dist/index.js [rounds, default 20]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { OpenClient as Client } from '@service-sdk/open'
import { smallFiles } from './files.ts'
import { childProcess, cpuSecondsOf, firstLine } from './processes.ts'

type OpenModule = typeof import('@service-sdk/open')

const [basePath, roundsArg] = process.argv.slice(2)
if (!basePath) throw new Error('usage: node ab.ts <dist/index.js of the other build> [rounds]')
const ROUNDS = Number(roundsArg ?? 20)
const BATCH = 100

const work = await mkdtemp(join(tmpdir(), 'bench-upload-ab-'))
const files = await smallFiles(join(work, 'files'), 1100)

const server = childProcess('server.ts', [join(work, 'store')], true)
try {
  const { urls, credentials } = JSON.parse(await firstLine(server)) as {
    urls: { open: string }
    credentials: { openToken: { type: string; value: string } }
  }
  const builds = {
    A: (await import(pathToFileURL(resolve(basePath)).href)) as OpenModule,
    B: (await import('@service-sdk/open')) as OpenModule,
  }
  const clients: Record<'A' | 'B', Client> = {
    A: builds.A.createOpenClient({ openUrl: urls.open, token: credentials.openToken }),
    B: builds.B.createOpenClient({ openUrl: urls.open, token: credentials.openToken }),
  }
  const send = async (client: Client, list: string[]) => {
    const results = await client.uploadMany(list).done()
    if (results.some((r) => r.status === 'rejected')) throw new Error('an upload failed')
  }
  // Warm-up: JIT, connections and credentials of both.
  for (const who of ['A', 'B'] as const) await send(clients[who], files.slice(1000))
  const spent = { A: { cpu: 0, server: 0, wall: 0, n: 0 }, B: { cpu: 0, server: 0, wall: 0, n: 0 } }
  for (let round = 0; round < ROUNDS; round++) {
    const at = (round * BATCH) % 1000
    for (const who of round % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
      const serverCpu = await cpuSecondsOf(server)
      const cpu = process.cpuUsage()
      const started = performance.now()
      await send(clients[who], files.slice(at, at + BATCH))
      const used = process.cpuUsage(cpu)
      spent[who].server += ((await cpuSecondsOf(server)) - serverCpu) * 1000
      spent[who].cpu += (used.user + used.system) / 1000
      spent[who].wall += performance.now() - started
      spent[who].n += BATCH
    }
  }
  for (const who of ['A', 'B'] as const) {
    const { cpu, server: simulator, wall, n } = spent[who]
    console.log(
      `${who}: CPU ${(cpu / n).toFixed(3)} ms per file, simulator CPU ${(simulator / n).toFixed(3)} ms per file, wall ${(wall / n).toFixed(3)} ms per file`,
    )
  }
  console.log(
    `B / A: CPU ${(spent.B.cpu / spent.A.cpu).toFixed(3)}, simulator CPU ${(spent.B.server / spent.A.server).toFixed(3)}, wall ${(spent.B.wall / spent.A.wall).toFixed(3)} (${ROUNDS} rounds of ${BATCH} files each)`,
  )
} finally {
  server.kill('SIGTERM')
  await rm(work, { recursive: true, force: true })
}
