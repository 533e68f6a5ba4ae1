import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliOss } from '../../../test/support/ali-oss.ts'
import { type RunningOss, startOss } from '../../../test/support/oss-server.ts'
import { directoryObjectStore } from './directory-store.ts'

const MiB = 1024 * 1024
const SIZE = 256 * MiB

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void

/** What JavaScript holds: the V8 heap plus Buffers/ArrayBuffers (which live outside it). */
const held = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

describe('directoryObjectStore memory', () => {
  let work: string
  let file: string
  let fileMd5: string
  let oss: RunningOss
  const credential = { accessKeyId: 'AK', accessKeySecret: 'secret', bucket: 'mem-bucket', dir: '' }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'oss-memory-test-'))
    file = join(work, 'big.bin')
    const block = randomBytes(MiB)
    const out = createWriteStream(file)
    for (let i = 0; i < SIZE / MiB; i++) {
      // A different block each MiB, so a part mix-up would change the MD5.
      block.writeUInt32BE(i, 0)
      if (!out.write(Buffer.from(block))) await once(out, 'drain')
    }
    out.end()
    await once(out, 'finish')
    const hash = createHash('md5')
    for await (const chunk of createReadStream(file)) hash.update(chunk)
    fileMd5 = hash.digest('hex').toUpperCase()
    oss = await startOss({
      store: directoryObjectStore(join(work, 'store')),
      credentials: { get: () => credential },
    })
  })
  afterAll(async () => {
    await oss?.close()
    await rm(work, { recursive: true, force: true })
  })

  /**
   * Peak growth of what JS keeps alive while `run` is going. A minor GC before each sample (every
   * 25 ms, cheap) frees chunks already written and dropped, so mostly what is retained counts.
   */
  async function peakGrowth(run: () => Promise<unknown>): Promise<number> {
    gc()
    const baseline = held()
    let peak = baseline
    const timer = setInterval(() => {
      gc({ type: 'minor' })
      peak = Math.max(peak, held())
    }, 25)
    try {
      await run()
    } finally {
      clearInterval(timer)
    }
    return peak - baseline
  }

  const client = () => aliOss({ ...credential, endpoint: oss.endpoint, timeout: 300_000 })

  it('streams a 256 MiB PutObject to disk without holding it', { timeout: 300_000 }, async () => {
    const growth = await peakGrowth(() => client().put('put.bin', file))
    const head = await client().head('put.bin')
    expect(head.res.headers.etag).toBe(`"${fileMd5}"`)
    expect(head.res.headers['content-length']).toBe(String(SIZE))
    // Client and server share this process: the bound covers both (socket buffers, ~1 MiB write
    // batches) and is still far below 256 MiB.
    expect(growth).toBeLessThan(64 * MiB)
  })

  it('streams a 256 MiB multipart upload (8 MiB parts, 4 in parallel) without holding it', {
    timeout: 300_000,
  }, async () => {
    const growth = await peakGrowth(() =>
      client().multipartUpload('multi.bin', file, { partSize: 8 * MiB, parallel: 4 }),
    )
    const got = await client().getStream('multi.bin')
    const hash = createHash('md5')
    for await (const chunk of got.stream) hash.update(chunk as Buffer)
    expect(hash.digest('hex').toUpperCase()).toBe(fileMd5)
    expect(growth).toBeLessThan(64 * MiB)
  })
})
