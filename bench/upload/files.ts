import { once } from 'node:events'
import { createWriteStream } from 'node:fs'

const MiB = 1024 * 1024

/** A file of `size` bytes at `path`: 1 MiB of random bytes, each copy numbered (no part is like another). */
export async function bigFile(path: string, size: number): Promise<string> {
  const block = Buffer.alloc(MiB)
  for (let i = 0; i < MiB; i += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i)
  const out = createWriteStream(path)
  for (let i = 0; i < size / MiB; i++) {
    block.writeUInt32BE(i, 0)
    if (!out.write(Buffer.from(block))) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return path
}
