import { expect, test, vi } from 'vitest'
import type { CheckpointStore, UploadCheckpoint } from '../src/index.ts'
import { sim, useUploadFixture, work } from './upload/fixture.ts'
import { MiB, recordingClient, servedHash, sha256, testBytes, until } from './upload/helpers.ts'

// On Node a multipart upload, its resume and the cleanup of stale uploads never load ali-oss:
// every request is made, signed and read by src/upload/node/object-requests.ts. ali-oss is
// replaced here by a module that records being loaded (and could not upload anything).
const aliOss = vi.hoisted(() => ({ loaded: 0 }))
vi.mock('ali-oss', () => {
  aliOss.loaded++
  return { default: class {} }
})

useUploadFixture()

test('a multipart upload, a resumed one and cleanupUploads on Node: ali-oss is not loaded', async () => {
  const { open } = recordingClient(sim)
  const bytes = testBytes(3 * MiB + 123)
  const path = await work.file('no-ali-oss.bin', bytes)
  const asset = await open.upload(path, { partSize: 512 * 1024, parallel: 3 }).done()
  expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))

  // An upload paused after two parts; another resumes from its checkpoint (ListParts first).
  const saved = new Map<string, UploadCheckpoint>()
  const store: CheckpointStore = {
    load: () => undefined,
    save: (checkpoint) => void saved.set(checkpoint.source.name, checkpoint),
    remove: () => {},
  }
  const first = open.upload(path, { partSize: 256 * 1024, parallel: 1, checkpoint: store })
  await until(() => (saved.get(path)?.parts.length ?? 0) >= 2, 'two parts stored')
  await first.pause()
  const left = structuredClone(saved.get(path)) as UploadCheckpoint
  const resumed = open.upload(path, { checkpoint: { ...store, load: () => left } })
  expect(await servedHash((await resumed.done()).accessUrl)).toBe(sha256(bytes))
  expect(resumed.uploadId).toBe(left.uploadId)
  await first.abort()

  await open.cleanupUploads({ olderThanMs: 0 })
  expect(aliOss.loaded).toBe(0)
})
