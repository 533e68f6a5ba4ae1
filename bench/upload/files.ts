import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

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

/** `count` files of 64 KiB of random bytes in `dir` (created), `file-0.bin` on; their paths. */
export async function smallFiles(dir: string, count: number): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (let i = 0; i < count; i++) {
    const path = join(dir, `file-${i}.bin`)
    const content = Buffer.alloc(64 * 1024)
    for (let j = 0; j < content.length; j += 4) content.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, j)
    await writeFile(path, content)
    paths.push(path)
  }
  return paths
}
