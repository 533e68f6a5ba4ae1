import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rejectionOf } from '@service-sdk/testkit'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SimError } from '../../http/sim-error.ts'
import { openSegments, segmentStream } from './file-io.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-io-test-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

it("object data shorter than its recorded size: the stream fails with the simulator's internal error", async () => {
  const path = join(dir, 'short.bin')
  await writeFile(path, Buffer.alloc(10, 1))
  const stream = segmentStream(await openSegments([{ path, size: 20 }]), 0, 19)
  const error = await rejectionOf(new Response(stream).arrayBuffer(), 'the whole object was read')
  expect(error).toBeInstanceOf(SimError)
  expect(error).toMatchObject({
    name: 'SimError',
    kind: 'internal',
    message: 'Object data is shorter than its recorded size',
  })
})
