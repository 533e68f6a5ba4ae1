/**
 * Upload throughput through the OSS app with the real ali-oss client.
 *
 *   pnpm exec node packages/simulator/bench/oss-upload.ts [--size 512] [--part 8] [--parallel 4]
 *     [--uploads 1] [--store directory|memory|sink] [--body node|web] [--op multipart|put] [--in-process]
 *
 * By default the server runs in a child process (as `service-sim` does); `--in-process` runs it in
 * the client's process, sharing one event loop (as a test suite does). `--store sink` hashes and
 * keeps nothing (the HTTP path alone); `--body web` makes the app read bodies through Hono's Web
 * stream instead of Node's request. Besides wall-clock MiB/s it prints MiB per CPU-second of the
 * server process (or of the whole process in-process), and of its main thread (the event loop,
 * which a worker thread can relieve): on a shared machine wall time measures the neighbours, CPU
 * time what the code costs.
 */
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { type ServerType, serve } from '@hono/node-server'
import { createOssApp } from '../src/oss/app.ts'
import { directoryObjectStore } from '../src/oss/directory-store.ts'
import { memoryObjectStore } from '../src/oss/memory-store.ts'
import type { ObjectStore } from '../src/oss/store.ts'
import { aliOss } from '../test/support/ali-oss.ts'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '512' },
    part: { type: 'string', default: '8' },
    parallel: { type: 'string', default: '4' },
    uploads: { type: 'string', default: '1' },
    store: { type: 'string', default: 'directory' },
    body: { type: 'string', default: 'node' },
    op: { type: 'string', default: 'multipart' },
    'in-process': { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
    dir: { type: 'string', default: '' },
  },
})
const MiB = 1024 * 1024
const credential = { accessKeyId: 'BENCH', accessKeySecret: 'secret', bucket: 'bench-bucket', dir: '' }

/** Keeps nothing and hashes nothing: what the HTTP path costs on its own. */
function sinkStore(): ObjectStore {
  const drain = async (body: AsyncIterable<Uint8Array>) => {
    let size = 0
    for await (const chunk of body) size += chunk.byteLength
    return size
  }
  const etag = '"00000000000000000000000000000000"'
  return {
    ...memoryObjectStore(),
    async put({ bucket, key, contentType, body }) {
      return { bucket, key, size: await drain(body), etag, contentType, lastModified: new Date() }
    },
    async uploadPart({ partNumber, body }) {
      return { partNumber, etag, size: await drain(body), lastModified: new Date() }
    },
    async initiateMultipartUpload({ bucket, key, contentType }) {
      return {
        bucket,
        key,
        contentType,
        uploadId: randomBytes(16).toString('hex').toUpperCase(),
        initiated: new Date(),
      }
    },
    async completeMultipartUpload({ bucket, key, parts }) {
      return { bucket, key, size: 0, etag: `"0-${parts.length}"`, contentType: '', lastModified: new Date() }
    },
  }
}

function listen(dir: string): Promise<{ server: ServerType; port: number }> {
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
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    )
  })
}

/** The child: serves, and reports its CPU time between 'start' and 'stop'. */
async function child(): Promise<void> {
  const { server, port } = await listen(values.dir)
  let since = process.cpuUsage()
  let threadSince = process.threadCpuUsage()
  process.on('message', (message) => {
    if (message === 'start') {
      since = process.cpuUsage()
      threadSince = process.threadCpuUsage()
    }
    if (message === 'stop')
      process.send?.({ cpu: process.cpuUsage(since), thread: process.threadCpuUsage(threadSince) })
  })
  process.on('disconnect', () => server.close(() => process.exit(0)))
  process.send?.({ port })
}

/** A server to upload to, and a way to read the CPU time it spent since `start()`. */
async function startServer(work: string) {
  const dir = join(work, 'store')
  if (values['in-process']) {
    const { server, port } = await listen(dir)
    let since = process.cpuUsage()
    let threadSince = process.threadCpuUsage()
    return {
      port,
      start: () => {
        since = process.cpuUsage()
        threadSince = process.threadCpuUsage()
      },
      stop: async () => {
        const cpu = process.cpuUsage(since)
        const thread = process.threadCpuUsage(threadSince)
        server.close()
        return { cpu, thread }
      },
    }
  }
  const forked = fork(import.meta.filename, [...process.argv.slice(2), '--serve', '--dir', dir], {
    stdio: 'inherit',
  })
  const [{ port }] = (await once(forked, 'message')) as [{ port: number }]
  return {
    port,
    start: () => forked.send('start'),
    stop: async () => {
      const reply = once(forked, 'message')
      forked.send('stop')
      const [usage] = (await reply) as [{ cpu: NodeJS.CpuUsage; thread: NodeJS.CpuUsage }]
      forked.disconnect()
      return usage
    },
  }
}

async function writeRandomFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path)
  for (let written = 0; written < bytes; written += 4 * MiB) {
    if (!out.write(randomBytes(Math.min(4 * MiB, bytes - written)))) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

async function main(): Promise<void> {
  const size = Number(values.size) * MiB
  const uploads = Number(values.uploads)
  const work = await mkdtemp(join(tmpdir(), 'oss-bench-'))
  try {
    const file = join(work, 'upload.bin')
    await writeRandomFile(file, size)
    const server = await startServer(work)
    const client = () =>
      aliOss({ ...credential, endpoint: `http://127.0.0.1:${server.port}`, timeout: 600_000 })
    server.start()
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
    const { cpu, thread } = await server.stop()
    const total = (size * uploads) / MiB
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    const threadSeconds = (thread.user + thread.system) / 1e6
    console.log(
      `${values.op} store=${values.store} body=${values.body}${values['in-process'] ? ' in-process' : ''}` +
        ` ${uploads}x${values.size} MiB` +
        (values.op === 'put' ? '' : ` part=${values.part} MiB parallel=${values.parallel}`) +
        `: ${(total / seconds).toFixed(0)} MiB/s wall (${seconds.toFixed(2)} s);` +
        ` ${values['in-process'] ? 'process' : 'server'} ${(total / cpuSeconds).toFixed(0)} MiB per CPU-second` +
        ` (user ${(cpu.user / 1e6).toFixed(2)} s, sys ${(cpu.system / 1e6).toFixed(2)} s),` +
        ` ${(total / threadSeconds).toFixed(0)} MiB per CPU-second of its main thread`,
    )
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

await (values.serve ? child() : main())
