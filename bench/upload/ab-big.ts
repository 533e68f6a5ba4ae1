/**
 * A/B of one large file's upload between two builds of @service-sdk/open, in one process: the
 * workspace's build (B) and another build (A, its `dist/index.js`) take turns uploading the same
 * file to the simulator in a process of its own. Prints, per build, MiB/s, the uploader's CPU per
 * MiB and the simulator's CPU per MiB (from /proc: Linux only), then B / A. Both CPU figures
 * matter: the simulator shares the machine's cores. Both builds run warm (JIT, connections,
 * modules loaded), so this measures the bytes' path; upload.bench.ts measures a first upload in a
 * fresh process against raw PUTs in another.
 *
 *   cp -r packages/open/dist packages/open/node_modules/.base/   (before changing anything)
 *   pnpm --filter @service-sdk/open build
 *   node bench/upload/ab-big.ts packages/open/node_modules/.base/dist/index.js [rounds=6] [MiB=512]
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { OpenClient } from '@service-sdk/open'
import { bigFile } from './files.ts'
import { childProcess, firstLine } from './processes.ts'

type OpenModule = typeof import('@service-sdk/open')

const [basePath, roundsArg, mibArg] = process.argv.slice(2)
if (!basePath) throw new Error('usage: node ab-big.ts <dist/index.js of the other build> [rounds] [MiB]')
const ROUNDS = Number(roundsArg ?? 6)
const MiB = 1024 * 1024
const SIZE = Number(mibArg ?? 512) * MiB
/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ: 100 on every common build). */
const TICKS = 100

const work = await mkdtemp(join(tmpdir(), 'bench-upload-ab-big-'))
const file = await bigFile(join(work, 'big.bin'), SIZE)
const store = join(work, 'store')
const server = childProcess('server.ts', [store])

/** The simulator's CPU seconds so far (user + system). */
async function serverCpu(): Promise<number> {
  const stat = await readFile(`/proc/${server.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}

try {
  const { urls, credentials } = JSON.parse(await firstLine(server)) as {
    urls: { open: string }
    credentials: { openToken: { type: string; value: string } }
  }
  const common = { openUrl: urls.open, token: credentials.openToken }
  const builds = {
    A: (await import(pathToFileURL(resolve(basePath)).href)) as OpenModule,
    B: (await import('@service-sdk/open')) as OpenModule,
  }
  const clients: Record<'A' | 'B', OpenClient> = {
    A: builds.A.createOpenClient(common),
    B: builds.B.createOpenClient(common),
  }
  const run = {
    A: async () => void (await clients.A.upload(file).done()),
    B: async () => void (await clients.B.upload(file).done()),
  }
  type Who = keyof typeof run
  const order: Who[] = ['A', 'B']
  const spent = Object.fromEntries(order.map((who) => [who, { cpu: 0, server: 0, wall: 0, n: 0 }])) as Record<
    Who,
    { cpu: number; server: number; wall: number; n: number }
  >
  /**
   * Objects of earlier runs off the disk (the store keeps data files until an object is replaced).
   * No reset of the simulator: it would void the credentials every contestant holds.
   */
  const clean = async () => {
    const data = join(store, 'objects', 'data')
    for (const name of await readdir(data)) await rm(join(data, name), { force: true })
  }
  // Warm-up: JIT, modules, connections and credentials of both.
  for (const who of order) {
    await run[who]()
    await clean()
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of round % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
      const server0 = await serverCpu()
      const cpu = process.cpuUsage()
      const started = performance.now()
      await run[who]()
      const wall = performance.now() - started
      const used = process.cpuUsage(cpu)
      spent[who].server += (await serverCpu()) - server0
      spent[who].cpu += (used.user + used.system) / 1e6
      spent[who].wall += wall / 1000
      spent[who].n += SIZE / MiB
      await clean()
    }
  }
  const f = (n: number, digits = 3) => n.toFixed(digits)
  for (const who of order) {
    const { cpu, server: s, wall, n } = spent[who]
    console.log(
      `${who.padEnd(3)}: ${f(n / wall, 1)} MiB/s, uploader CPU ${f((cpu * 1000) / n)} ms/MiB, simulator CPU ${f((s * 1000) / n)} ms/MiB`,
    )
  }
  const ratio = (x: Who, y: Who) => {
    const a = spent[x]
    const b = spent[y]
    return `throughput ${f(b.wall / a.wall)}, uploader CPU ${f(a.cpu / b.cpu)}, simulator CPU ${f(a.server / b.server)}, both ${f((a.cpu + a.server) / (b.cpu + b.server))}`
  }
  console.log(`B / A:   ${ratio('B', 'A')}`)
  console.log(`(${ROUNDS} rounds of ${SIZE / MiB} MiB each, alternating order)`)
} finally {
  server.kill('SIGTERM')
  await rm(work, { recursive: true, force: true })
}
