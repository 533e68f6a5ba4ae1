// A file range sent into a real socket: a range that fits one small pool buffer is read synchronously, a
// larger one through the thread pool with two buffers taking turns. Both send the range's bytes,
// compute their CRC-64, count them, and record a file that changed as the source's failure.
import { once } from 'node:events'
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { crc64 } from '../crc64/crc64.ts'
import { createBufferPool, fileRange, sendFileRange } from './file-range.ts'

const BUFFER = 16
const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 7) % 256))
let dir: string
let server: Server | undefined
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-range-test-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
  server = undefined
})

/** A server that answers 200 with the body it received. */
async function echo(): Promise<number> {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer)
    } catch {
      return // the request was cut
    }
    res.end(Buffer.concat(chunks))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return (server.address() as AddressInfo).port
}

async function send(path: string, start: number, end: number) {
  const port = await echo()
  const failures: unknown[] = []
  const range = fileRange(path, start, end, (error) => failures.push(error))
  const req = request({ port, method: 'PUT', headers: { 'content-length': end - start } })
  req.on('error', () => {}) // cut on purpose when the range fails
  const answer = once(req, 'response').then(async ([res]) => {
    const chunks: Buffer[] = []
    for await (const chunk of res) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  })
  answer.catch(() => {}) // awaited only when the range was sent
  let counted = 0
  const sent = sendFileRange(req, range, createBufferPool(BUFFER, 4 * BUFFER, 16 * BUFFER), (n) => {
    counted += n
  })
  const failed = await sent.then(
    () => undefined,
    (error: unknown) => {
      req.destroy()
      return error
    },
  )
  const received = failed ? undefined : await answer
  // Counted once the socket took the bytes: before the server could answer them.
  return { range, failures, failed, counted, received }
}

describe('sendFileRange', () => {
  for (const [what, start, end] of [
    ['a range that fits one buffer (read synchronously)', 3, 3 + BUFFER],
    ['a range larger than a buffer (read through the thread pool)', 3, 90],
  ] as const) {
    it(`${what}: its bytes, their CRC-64, every byte counted`, async () => {
      const path = join(dir, `whole-${start}-${end}.bin`)
      await writeFile(path, bytes)
      const { range, failed, counted, received } = await send(path, start, end)
      expect(failed).toBeUndefined()
      expect(received).toEqual(bytes.subarray(start, end))
      expect(range.crc.value()).toBe(crc64(bytes.subarray(start, end)))
      expect(counted).toBe(end - start)
    })

    it(`${what}, of a file that shrank: rejects and records the failure as the source's`, async () => {
      const path = join(dir, `shrank-${start}-${end}.bin`)
      await writeFile(path, bytes)
      await truncate(path, start + 2)
      const { failures, failed } = await send(path, start, end)
      expect(String(failed)).toContain(`ended before byte ${end}`)
      expect(failures).toEqual([failed])
    })
  }

  it('a small file that went: rejects with the Node error, recorded as the source failure', async () => {
    const { failures, failed } = await send(join(dir, 'gone.bin'), 0, 8)
    expect(failed).toMatchObject({ code: 'ENOENT' })
    expect(failures).toEqual([failed])
  })
})
