/**
 * Upload throughput through the OSS app with the real ali-oss client. The server runs in a child
 * process (as `service-sim` does), so client and server do not share a core's event loop.
 *
 *   pnpm exec node packages/simulator/src/oss/bench.ts [--size 512] [--part 8] [--parallel 4]
 *     [--uploads 1] [--store directory|memory|sink] [--body node|web] [--op multipart|put]
 *
 * `--store sink` hashes nothing and keeps nothing (the HTTP path alone); `--body web` makes the
 * app read bodies through Hono's Web stream instead of Node's request, to compare the two.
 */
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import { createOssApp } from './app.ts'
import { directoryObjectStore } from './directory-store.ts'
import { memoryObjectStore } from './memory-store.ts'
import type { ObjectStore } from './store.ts'
import { aliOss } from './testing/ali-oss.ts'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '512' },
    part: { type: 'string', default: '8' },
    parallel: { type: 'string', default: '4' },
    uploads: { type: 'string', default: '1' },
    store: { type: 'string', default: 'directory' },
    body: { type: 'string', default: 'node' },
    op: { type: 'string', default: 'multipart' },
    serve: { type: 'boolean', default: false },
    dir: { type: 'string' },
  },
})
const MiB = 1024 * 1024
const credential = { accessKeyId: 'BENCH', accessKeySecret: 'secret', bucket: 'bench-bucket', dir: '' }

/** Keeps nothing and hashes nothing: what the HTTP path costs on its own. */
function sinkStore(): ObjectStore {
  const memory = memoryObjectStore()
  const drain = async (body: AsyncIterable<Uint8Array>) => {
    let size = 0
    for await (const chunk of body) size += chunk.byteLength
    return size
  }
  const etag = '"00000000000000000000000000000000"'
  return {
    ...memory,
    async put(input) {
      const size = await drain(input.body)
      return {
        bucket: input.bucket,
        key: input.key,
        size,
        etag,
        contentType: input.contentType,
        lastModified: new Date(),
      }
    },
    async uploadPart(input) {
      return { partNumber: input.partNumber, etag, size: await drain(input.body), lastModified: new Date() }
    },
    async completeMultipartUpload(input) {
      return {
        bucket: input.bucket,
        key: input.key,
        size: 0,
        etag: `"0-${input.parts.length}"`,
        contentType: '',
        lastModified: new Date(),
      }
    },
    async initiateMultipartUpload(input) {
      const { bucket, key, contentType } = input
      return {
        bucket,
        key,
        contentType,
        uploadId: randomBytes(16).toString('hex').toUpperCase(),
        initiated: new Date(),
      }
    },
  }
}

async function server(): Promise<void> {
  const dir = values.dir as string
  const store =
    values.store === 'memory'
      ? memoryObjectStore()
      : values.store === 'sink'
        ? sinkStore()
        : directoryObjectStore(dir)
  const app = createOssApp({
    store,
    credentials: { get: (id) => (id === credential.accessKeyId ? credential : undefined) },
  })
  // Without env.incoming the app falls back to the Web body Hono builds.
  const fetch = values.body === 'web' ? (request: Request) => app.fetch(request, {}) : app.fetch
  const running = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.send?.({ port: info.port }),
  )
  // CPU time is what the server spends per byte whatever else the machine is doing.
  let since = process.cpuUsage()
  process.on('message', (message) => {
    if (message === 'start') since = process.cpuUsage()
    if (message === 'stop') process.send?.({ cpu: process.cpuUsage(since) })
  })
  process.on('disconnect', () => running.close(() => process.exit(0)))
}

async function writeRandomFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path)
  for (let written = 0; written < bytes; written += 4 * MiB) {
    if (!out.write(randomBytes(Math.min(4 * MiB, bytes - written)))) await once(out, 'drain')
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
}

async function main(): Promise<void> {
  const size = Number(values.size) * MiB
  const uploads = Number(values.uploads)
  const work = await mkdtemp(join(tmpdir(), 'oss-bench-'))
  try {
    const file = join(work, 'upload.bin')
    await writeRandomFile(file, size)
    const child = fork(
      import.meta.filename,
      [...process.argv.slice(2), '--serve', '--dir', join(work, 'store')],
      {
        stdio: 'inherit',
        execArgv: [...process.execArgv, '--cpu-prof', '--cpu-prof-dir=/tmp/prof'],
      },
    )
    const port = await new Promise<number>((resolve) =>
      child.once('message', (m) => resolve((m as { port: number }).port)),
    )
    const client = () => aliOss({ ...credential, endpoint: `http://127.0.0.1:${port}`, timeout: 600_000 })
    const reply = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)))
    child.send('start')
    const clientSince = process.cpuUsage()
    const started = process.hrtime.bigint()
    await Promise.all(
      Array.from({ length: uploads }, (_, i) =>
        values.op === 'put'
          ? client().put(`bench/${i}.bin`, file)
          : client().multipartUpload(`bench/${i}.bin`, file, {
              partSize: Number(values.part) * MiB,
              parallel: Number(values.parallel),
            }),
      ),
    )
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const clientCpu = process.cpuUsage(clientSince)
    const serverReply = reply<{ cpu: NodeJS.CpuUsage }>()
    child.send('stop')
    const { cpu } = await serverReply
    const total = (size * uploads) / MiB
    const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6
    console.log(
      `${values.op} store=${values.store} body=${values.body} ${uploads}x${values.size} MiB` +
        (values.op === 'put' ? '' : ` part=${values.part} MiB parallel=${values.parallel}`) +
        `: ${(total / seconds).toFixed(0)} MiB/s wall (${seconds.toFixed(2)} s);` +
        ` server ${(total / cpuSeconds(cpu)).toFixed(0)} MiB per CPU-second` +
        ` (user ${(cpu.user / 1e6).toFixed(2)} s, sys ${(cpu.system / 1e6).toFixed(2)} s);` +
        ` client ${(total / cpuSeconds(clientCpu)).toFixed(0)} MiB per CPU-second`,
    )
    child.disconnect()
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

await (values.serve ? server() : main())
