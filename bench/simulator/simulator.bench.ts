/**
 * Large uploads through the simulator: one file sent with the real ali-oss client's
 * `multipartUpload` (8 MiB parts, 4 at once) to the built simulator, against the same bytes sent
 * as 4 concurrent raw PUTs of 8 MiB to a server that only drains them (loopback HTTP alone),
 * in the same run. The simulator checks every part's MD5 (its ETag), computes CRC-64 and writes
 * to disk; the figure to watch is its CPU per MiB against the sink's, which a shared machine's
 * load disturbs far less than wall time. Rounds alternate which goes first; figures are medians.
 * No target: the figures are information. About 1 minute with the defaults.
 *
 *     pnpm bench simulator          (builds first)    BENCH_ROUNDS=3, BENCH_MIB=256 by default
 */
import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { printTable } from '../lib/report.ts'
import { fetchSts } from '../lib/sts.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_MIB ?? 256) * MiB
const PART = 8 * MiB
const PARALLEL = 4

interface Figures {
  mibPerSecond: number
  /** MiB per CPU-second of the server process, and of its main thread (the event loop). */
  mibPerCpuSecond: number
  mibPerMainThreadSecond: number
}

interface Server {
  child: ChildProcess
  address: { openUrl?: string; token?: { type: string; value: string }; sinkUrl?: string }
}

async function startServer(dir: string, sink: boolean): Promise<Server> {
  const child = fork(join(import.meta.dirname, 'server.ts'), [dir, ...(sink ? ['--sink'] : [])])
  const [address] = (await once(child, 'message')) as [Server['address']]
  return { child, address }
}

async function timed(server: Server, send: () => Promise<void>): Promise<Figures> {
  server.child.send('start')
  const started = performance.now()
  await send()
  const seconds = (performance.now() - started) / 1000
  const reply = once(server.child, 'message')
  server.child.send('stop')
  const [{ cpu, thread }] = (await reply) as [{ cpu: NodeJS.CpuUsage; thread: NodeJS.CpuUsage }]
  const mib = SIZE / MiB
  return {
    mibPerSecond: mib / seconds,
    mibPerCpuSecond: mib / ((cpu.user + cpu.system) / 1e6),
    mibPerMainThreadSecond: mib / ((thread.user + thread.system) / 1e6),
  }
}

async function viaAliOss(server: Server, file: string): Promise<void> {
  const { openUrl = '', token = { type: '', value: '' } } = server.address
  const sts = await fetchSts(openUrl, token)
  const OSS = createRequire(import.meta.url)('ali-oss') as new (
    options: Record<string, unknown>,
  ) => { multipartUpload(key: string, file: string, options: Record<string, unknown>): Promise<unknown> }
  const client = new OSS({
    endpoint: sts.endPoint,
    bucket: sts.bucket,
    accessKeyId: sts.accessKeyId,
    accessKeySecret: sts.accessKeySecret,
    stsToken: sts.securityToken,
    timeout: 600_000,
    refreshSTSTokenInterval: 3_600_000,
  })
  await client.multipartUpload(`${sts.dir}${randomBytes(8).toString('hex')}.bin`, file, {
    partSize: PART,
    parallel: PARALLEL,
  })
}

async function viaRawPuts(server: Server, file: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true })
  const url = new URL(server.address.sinkUrl ?? '')
  const put = (start: number) =>
    new Promise<void>((resolve, reject) => {
      const end = Math.min(SIZE, start + PART)
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: `/${start}`,
          agent,
          headers: { 'content-length': end - start },
        },
        (response) => response.resume().on('end', resolve),
      )
      request.on('error', reject)
      createReadStream(file, { start, end: end - 1 }).pipe(request)
    })
  let next = 0
  const lane = async () => {
    for (let at = next; at < SIZE; at = next) {
      next += PART
      await put(at)
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, lane))
  agent.destroy()
}

async function randomFile(path: string): Promise<void> {
  const out = createWriteStream(path)
  for (let written = 0; written < SIZE; written += 4 * MiB) {
    if (!out.write(randomBytes(Math.min(4 * MiB, SIZE - written)))) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
console.log(
  `simulator bench: about 1 minute (${ROUNDS} rounds of one ${SIZE / MiB} MiB file each way; no target)`,
)
const work = await mkdtemp(join(tmpdir(), 'bench-simulator-'))
try {
  const file = join(work, 'upload.bin')
  await randomFile(file)
  const simulator = await startServer(join(work, 'store'), false)
  const sink = await startServer(work, true)
  const runs: { simulator: Figures[]; sink: Figures[] } = { simulator: [], sink: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['simulator', 'sink'] as const) : (['sink', 'simulator'] as const)
    for (const which of order) {
      runs[which].push(
        which === 'simulator'
          ? await timed(simulator, () => viaAliOss(simulator, file))
          : await timed(sink, () => viaRawPuts(sink, file)),
      )
    }
  }
  simulator.child.disconnect()
  sink.child.disconnect()
  const row = (name: string, figures: Figures[]) => [
    name,
    median(figures.map((f) => f.mibPerSecond)).toFixed(0),
    median(figures.map((f) => f.mibPerCpuSecond)).toFixed(0),
    median(figures.map((f) => f.mibPerMainThreadSecond)).toFixed(0),
  ]
  const sim = row('simulator (ali-oss multipart)', runs.simulator)
  const base = row('sink (raw PUTs, no hashing)', runs.sink)
  printTable(
    `One ${SIZE / MiB} MiB file, ${PART / MiB} MiB x ${PARALLEL}, median of ${ROUNDS} (shared machine)`,
    [
      ['server', 'MiB/s wall', 'MiB per server CPU-s', 'MiB per main-thread CPU-s'],
      sim,
      base,
      ['ratio simulator / sink', ...[1, 2, 3].map((i) => (Number(sim[i]) / Number(base[i])).toFixed(2))],
    ],
  )
} finally {
  await rm(work, { recursive: true, force: true })
}
