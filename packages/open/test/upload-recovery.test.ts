import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { UploadError } from '@service-sdk/core'
import { describe, expect, test } from 'vitest'
import type { UploadManyResult, UploadProgress } from '../src/index.ts'
import { fresh, sim, useUploadFixture, work } from './upload/fixture.ts'
import {
  countOss,
  KiB,
  MiB,
  recordingClient,
  rejection,
  servedHash,
  sha256,
  testBytes,
  until,
} from './upload/helpers.ts'

// Pause, resume and recovery after failure, against the simulator's object store through the
// real ali-oss: what the server holds is checked, not only what the SDK says.

useUploadFixture()

const partsOnServer = async (key: string, uploadId: string) => {
  const { parts } = await (await fresh()).listParts(key, uploadId)
  return parts === undefined ? 0 : Array.isArray(parts) ? parts.length : 1
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('pause and resume', () => {
  test('parts in flight finish, no new part starts while paused, done() waits; resume completes with the exact bytes', async () => {
    const { open } = recordingClient(sim)
    // Slow parts (the rule also counts them: one rule answers each request).
    const slow = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 60 },
      times: Infinity,
    })
    const bytes = testBytes(3 * MiB)
    const parts = () => ({ UploadPart: slow.hits })
    const seen: UploadProgress[] = []
    const upload = open.upload(bytes, {
      name: 'paused',
      extension: 'bin',
      partSize: 256 * KiB,
      parallel: 2,
      onProgress: (p) => seen.push(p),
    })
    await until(() => parts().UploadPart >= 2, 'two parts started')
    await upload.pause()
    expect(upload.progress).toMatchObject({ paused: true, rate: undefined })
    const atPause = parts().UploadPart
    const loadedAtPause = upload.progress.loaded
    // Parts in flight at pause() finished: what is counted is whole parts.
    expect(loadedAtPause % (256 * KiB)).toBe(0)
    let settled = false
    void upload.done().finally(() => {
      settled = true
    })
    await sleep(400)
    expect(parts().UploadPart).toBe(atPause)
    expect(upload.progress.loaded).toBe(loadedAtPause)
    expect(settled).toBe(false)

    upload.resume()
    expect(upload.progress.paused).toBe(false)
    const asset = await upload.done()
    expect(parts().UploadPart).toBe(12)
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    expect(seen.filter((p) => p.paused).length).toBeGreaterThan(0)
    expect(seen.at(-1)).toMatchObject({ phase: 'done', loaded: bytes.length, etaMs: 0 })
  })

  test('faults while paused: a 5xx and a reset are retried only after resume; abort while paused rejects at once', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'status', status: 503 },
      times: 1,
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 4 },
      action: { type: 'reset' },
      times: 1,
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 40 },
      times: Infinity,
    })
    const bytes = testBytes(2 * MiB)
    const upload = open.upload(bytes, { name: 'faulty', extension: 'bin', partSize: 256 * KiB, parallel: 2 })
    await upload.pause()
    await sleep(100)
    upload.resume()
    await until(() => upload.progress.loaded >= 4 * 256 * KiB, 'four parts sent')
    await upload.pause()
    upload.resume()
    const asset = await upload.done()
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))

    const second = open.upload(testBytes(2 * MiB), { name: 'stopped', extension: 'bin', partSize: 256 * KiB })
    await until(() => second.uploadId !== undefined, 'the multipart upload initiated')
    await second.pause()
    await second.abort()
    expect(await rejection(second.done())).toMatchObject({ name: 'AbortError' })
    expect(await rejection((await fresh()).listParts(second.key!, second.uploadId!))).toMatchObject({
      code: 'NoSuchUpload',
    })
  })
})

describe('recovery after failure', () => {
  test('a permanent error keeps the stored parts; once lifted, retry() sends only the missing parts', async () => {
    const { open, recorded } = recordingClient(sim)
    const blocked = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 4 },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      times: Infinity,
    })
    const bytes = testBytes(2 * MiB)
    const parts = countOss(sim, ['UploadPart', 'InitiateMultipartUpload', 'ListParts'])
    const upload = open.upload(bytes, { name: 'kept', extension: 'bin', partSize: 256 * KiB, parallel: 1 })
    const error = await rejection(upload.done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ ossCode: 'AccessDenied', partNumber: 4, isRetryable: false })
    // Parts 1-3 stay on the server under the same upload.
    expect(await partsOnServer(upload.key!, upload.uploadId!)).toBe(3)
    const uploadId = upload.uploadId

    blocked.remove()
    const asset = await upload.retry()
    expect(await upload.done()).toEqual(asset)
    expect(upload.uploadId).toBe(uploadId)
    // 3 before the failure, then parts 4-8 (the refused attempt was answered by the fault); one
    // ListParts is the test's own look, the other the retry's.
    expect(parts()).toEqual({ UploadPart: 8, InitiateMultipartUpload: 1, ListParts: 2 })
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    expect(recorded.count('/material-save')).toBe(1)
    expect(upload.progress).toMatchObject({ phase: 'done', loaded: bytes.length })
    // retry() after success is done().
    expect(await upload.retry()).toEqual(asset)
  })

  test('retry budget spent on 5xx and resets: parts kept, retry() completes; the checkpoint lets a new upload() continue too', async () => {
    const { open } = recordingClient(sim, { uploads: { retry: { maxRetries: 1, initialDelayMs: 1 } } })
    const bytes = testBytes(2 * MiB)
    const path = await work.file('flaky.bin', bytes)
    const checkpoint = `${work.dir}/checkpoints`
    const outage = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 5 },
      action: { type: 'status', status: 502 },
      times: Infinity,
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'reset' },
      times: 1,
    })
    const first = open.upload(path, { partSize: 256 * KiB, parallel: 1, checkpoint })
    expect(await rejection(first.done())).toMatchObject({
      ossCode: 'InternalError',
      status: 502,
      partNumber: 5,
    })
    expect(await partsOnServer(first.key!, first.uploadId!)).toBe(4)
    // The checkpoint file is still there.
    expect((await stat(checkpoint)).isDirectory()).toBe(true)

    outage.remove()
    // Another upload() of the same file and checkpoint (a new handle, as after a restart).
    const parts = countOss(sim, ['UploadPart', 'InitiateMultipartUpload'])
    const again = open.upload(path, { partSize: 256 * KiB, checkpoint })
    const asset = await again.done()
    expect(again.uploadId).toBe(first.uploadId)
    expect(parts()).toEqual({ UploadPart: 4, InitiateMultipartUpload: 0 })
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    // The first handle's retry() has nothing left to continue: the multipart upload is complete.
    await first.abort()
  })

  test('abort() after a failure discards the kept parts; keepPartsOnFailure: false discards them at once', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'status', status: 400, ossCode: 'InvalidArgument' },
      times: Infinity,
    })
    const upload = open.upload(testBytes(1 * MiB), {
      name: 'x',
      extension: 'bin',
      partSize: 256 * KiB,
      parallel: 1,
    })
    const error = await rejection(upload.done())
    expect(await partsOnServer(upload.key!, upload.uploadId!)).toBe(2)
    await upload.abort()
    expect(await rejection(upload.done())).toBe(error)
    expect(await rejection((await fresh()).listParts(upload.key!, upload.uploadId!))).toMatchObject({
      code: 'NoSuchUpload',
    })
    expect(await rejection(upload.retry())).toBe(error)
  })

  test('a refused material-save (the service answered an error code): retry() saves again without sending the object again', async () => {
    const { open, recorded } = recordingClient(sim, { retry: false })
    sim.control.faults.inject({
      match: { target: 'open', path: 'material-save' },
      action: { type: 'open-code', code: '500', message: 'busy, nothing saved' },
      times: 1,
    })
    const ops = countOss(sim, ['PutObject'])
    const upload = open.upload(testBytes(10 * KiB), { name: 'saved-later', extension: 'bin' })
    expect(await rejection(upload.done())).not.toMatchObject({ code: 'save_outcome_unknown' })
    const asset = await upload.retry()
    expect(ops()).toEqual({ PutObject: 1 })
    expect(recorded.count('/material-save')).toBe(2)
    expect(asset.key).toBe(upload.key)
  })

  for (const [what, action] of [
    ['a 500', { type: 'status', status: 500 }],
    ['a cut connection', { type: 'reset' }],
  ] as const) {
    test(`a material-save the service acted on without a readable answer (${what}) is never sent again by retry(); retry({ saveAgain: true }) sends it`, async () => {
      const { open, recorded } = recordingClient(sim, { retry: false })
      sim.control.faults.inject({ match: { target: 'open', path: 'material-save' }, action, when: 'after' })
      const upload = open.upload(testBytes(10 * KiB), { name: 'unknown', extension: 'bin' })
      const assets = () => sim.control.snapshot().materials.filter((m) => m.key === upload.key)
      const first = await rejection(upload.done())
      expect(first).toMatchObject({ name: 'UploadError', code: 'save_outcome_unknown', isRetryable: false })
      expect((first as Error).message).toContain(upload.key)
      expect(await rejection(upload.retry())).toMatchObject({ code: 'save_outcome_unknown' })
      expect(recorded.count('/material-save')).toBe(1)
      expect(assets()).toHaveLength(1)
      const asset = await upload.retry({ saveAgain: true })
      expect(recorded.count('/material-save')).toBe(2)
      expect(asset.key).toBe(upload.key)
      expect(assets()).toHaveLength(2) // what saveAgain warns of
    })
  }

  test('uploadMany: a save batch the service acted on without an answer fails each of its files as save_outcome_unknown; a rerun with the checkpoint saves none again', async () => {
    const { open, recorded } = recordingClient(sim, { retry: false })
    const paths = await Promise.all(
      ['a', 'b', 'c'].map((n) => work.file(`unknown-${n}.bin`, testBytes(4 * KiB))),
    )
    const checkpoint = `${work.dir}/checkpoints-many-unknown`
    const before = sim.control.snapshot().materials.length
    sim.control.faults.inject({
      match: { target: 'open', path: 'material-save' },
      action: { type: 'reset' },
      when: 'after',
    })
    const codes = (results: UploadManyResult[]) =>
      results.map((r) => (r.status === 'rejected' ? (r.error as { code?: string }).code : r.status))
    const unknown = ['save_outcome_unknown', 'save_outcome_unknown', 'save_outcome_unknown']
    expect(codes(await open.uploadMany(paths, { checkpoint }).done())).toEqual(unknown)
    expect(sim.control.snapshot().materials.length).toBe(before + 3)
    const saves = recorded.count('/material-save')
    expect(codes(await open.uploadMany(paths, { checkpoint }).done())).toEqual(unknown)
    expect(recorded.count('/material-save')).toBe(saves)
    expect(sim.control.snapshot().materials.length).toBe(before + 3)
  })

  test('a stream cannot be retried once read: UploadError source_consumed', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 400, ossCode: 'InvalidArgument' },
    })
    async function* chunks() {
      yield testBytes(600 * KiB)
    }
    const upload = open.upload(chunks(), { name: 's', extension: 'bin', partSize: 256 * KiB })
    await rejection(upload.done())
    expect(await rejection(upload.retry())).toMatchObject({ code: 'source_consumed' })
  })
})

describe('stale multipart uploads', () => {
  test('cleanupUploads() aborts the kept parts of failed uploads older than olderThanMs, and only those', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      times: Infinity,
    })
    const failed = open.upload(testBytes(600 * KiB), {
      name: 'left',
      extension: 'bin',
      partSize: 256 * KiB,
      parallel: 1,
    })
    await rejection(failed.done())
    expect(await partsOnServer(failed.key!, failed.uploadId!)).toBe(1)

    const young = await open.cleanupUploads()
    expect(young.aborted.map((u) => u.uploadId)).not.toContain(failed.uploadId)
    expect(await partsOnServer(failed.key!, failed.uploadId!)).toBe(1)

    const swept = await open.cleanupUploads({ olderThanMs: 0 })
    expect(swept.aborted).toContainEqual({
      key: failed.key,
      uploadId: failed.uploadId,
      initiated: expect.any(Number),
    })
    expect(swept.failed).toEqual([])
    expect(await rejection((await fresh()).listParts(failed.key!, failed.uploadId!))).toMatchObject({
      code: 'NoSuchUpload',
    })
    await expect(open.cleanupUploads({ olderThanMs: -1 })).rejects.toMatchObject({
      name: 'ServiceValidationError',
    })
  })
})

describe('integrity', () => {
  test('a part stored damaged: UploadError checksum_mismatch, the object deleted, nothing saved; retry() uploads it whole', async () => {
    const { open, recorded } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'corrupt', offset: 1000 },
    })
    const bytes = testBytes(1 * MiB)
    const path = await work.file('damaged.bin', bytes)
    const upload = open.upload(path, { partSize: 256 * KiB })
    const error = await rejection(upload.done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'checksum_mismatch', isRetryable: true })
    expect(await rejection((await fresh()).head(upload.key!))).toMatchObject({ status: 404 })
    expect(recorded.count('/material-save')).toBe(0)

    const asset = await upload.retry()
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
  })

  test('a single PUT stored damaged, from bytes and from a stream: checksum_mismatch; intact uploads pass the check', async () => {
    const { open } = recordingClient(sim)
    for (const source of [() => testBytes(50 * KiB), () => Readable.from([testBytes(50 * KiB)])]) {
      sim.control.faults.inject({ match: { target: 'oss', op: 'PutObject' }, action: { type: 'corrupt' } })
      const upload = open.upload(source(), { name: 'put', extension: 'bin' })
      expect(await rejection(upload.done())).toMatchObject({ code: 'checksum_mismatch' })
    }
    const bytes = testBytes(700 * KiB)
    const streamed = await open
      .upload(Readable.from([bytes.subarray(0, 300 * KiB), bytes.subarray(300 * KiB)]), {
        name: 'intact',
        extension: 'bin',
        partSize: 256 * KiB,
      })
      .done()
    expect(await servedHash(streamed.accessUrl)).toBe(sha256(bytes))
  })

  test('a resumed upload checks the parts stored before the crash too (their CRCs read again from the file)', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(1 * MiB)
    const path = await work.file('resumed-crc.bin', bytes)
    // Part 1 is stored damaged; the upload then fails for good on part 3 and keeps its parts.
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 1 },
      action: { type: 'corrupt', offset: 5 },
    })
    const blocked = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      times: Infinity,
    })
    const checkpoint = `${work.dir}/crc-checkpoints`
    const first = open.upload(path, { partSize: 256 * KiB, parallel: 1, checkpoint })
    await rejection(first.done())
    blocked.remove()
    // A new handle (as after a restart): part 1 comes from the server's list, not from this run.
    const error = await rejection(open.upload(path, { partSize: 256 * KiB, checkpoint }).done())
    expect(error).toMatchObject({ code: 'checksum_mismatch' })
  })
})
