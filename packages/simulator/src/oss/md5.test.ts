import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createMd5 } from './md5.ts'

const MiB = 1024 * 1024

async function hashInChunks(data: Buffer, chunkSize: number): Promise<Buffer> {
  const md5 = createMd5()
  for (let offset = 0; offset < data.length; offset += chunkSize) {
    const wait = md5.update(data.subarray(offset, offset + chunkSize))
    if (wait) await wait
  }
  return md5.digest()
}

describe('createMd5', () => {
  it.each([
    ['nothing', 0, 1],
    ['a small body (hashed inline)', 1000, 7],
    ['exactly the offload threshold', MiB, 65_536],
    ['a body hashed on a worker', 5 * MiB + 3, 65_536],
    ['one huge chunk', 9 * MiB, 9 * MiB],
  ])('agrees with node:crypto for %s', async (_, size, chunkSize) => {
    const data = randomBytes(size)
    expect((await hashInChunks(data, chunkSize)).equals(createHash('md5').update(data).digest())).toBe(true)
  })

  it('keeps concurrent bodies apart', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => randomBytes(3 * MiB + i))
    const digests = await Promise.all(bodies.map((body, i) => hashInChunks(body, 40_000 + i)))
    digests.forEach((digest, i) => {
      expect(
        digest.equals(
          createHash('md5')
            .update(bodies[i] as Buffer)
            .digest(),
        ),
      ).toBe(true)
    })
  })

  it('asks the caller to wait once a few MiB are queued for the worker', async () => {
    const md5 = createMd5()
    let waits = 0
    for (let i = 0; i < 64; i++) {
      const wait = md5.update(randomBytes(256 * 1024))
      if (wait) {
        waits++
        await wait
      }
    }
    await md5.digest()
    expect(waits).toBeGreaterThan(0)
  })

  it('can be abandoned mid-body', async () => {
    const md5 = createMd5()
    md5.update(randomBytes(3 * MiB))
    md5.dispose()
    // The worker stays usable for the next body.
    const data = randomBytes(2 * MiB)
    expect((await hashInChunks(data, 65_536)).equals(createHash('md5').update(data).digest())).toBe(true)
  })
})
