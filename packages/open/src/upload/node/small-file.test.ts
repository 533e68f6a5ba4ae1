import { mkdtemp, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { closeFile, openFile, readWhole } from './small-file.ts'

describe('a small file read whole', () => {
  test('one open gives the size and the bytes; a missing file or a directory is a validation error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'small-file-'))
    const path = join(dir, 'a.bin')
    await writeFile(path, 'hello world')
    const { fd, stats } = await openFile(path)
    expect(stats.size).toBe(11)
    expect(Buffer.from(await readWhole(fd, stats.size, path)).toString()).toBe('hello world')
    await closeFile(fd)
    await expect(openFile(join(dir, 'missing.bin'))).rejects.toMatchObject({
      code: 'validation_error',
      issues: [{ path: 'source', message: expect.stringContaining('ENOENT') }],
    })
    await expect(openFile(dir)).rejects.toMatchObject({
      code: 'validation_error',
      issues: [{ path: 'source', message: `${dir} is not a file` }],
    })
  })

  test('a file shorter than its stat said when read: source_error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'small-file-'))
    const path = join(dir, 'b.bin')
    await writeFile(path, Buffer.alloc(1000, 1))
    const { fd, stats } = await openFile(path)
    await truncate(path, 10)
    await expect(readWhole(fd, stats.size, path)).rejects.toMatchObject({ code: 'source_error' })
    await closeFile(fd)
  })
})
