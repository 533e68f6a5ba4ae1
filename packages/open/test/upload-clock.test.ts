import { describe, expect, test } from 'vitest'
import { SpaceNotWritableError } from '../src/index.ts'
import { sim, useUploadFixture } from './upload/fixture.ts'
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

// Time passing in the service (the simulator's clock, moved by the test) while uploads run:
// what expires is the service's to say, and the upload takes it as the live service would.

useUploadFixture()
const DAY = 24 * 3_600_000

describe("the service's time moves", () => {
  test('a space past its invalidTime: the write rule refuses the upload before any byte is sent', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(10 * KiB)
    await open.upload(bytes, { name: 'before', extension: 'bin', orgId: '1001' }).done()
    await sim.control.clock.advance(400 * DAY)
    const sent = countOss(sim, ['PutObject', 'InitiateMultipartUpload'])
    const error = await rejection(
      open.upload(bytes, { name: 'after', extension: 'bin', orgId: '1001' }).done(),
    )
    expect(SpaceNotWritableError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ orgId: '1001', reason: 'expired' })
    expect(sent()).toEqual({ PutObject: 0, InitiateMultipartUpload: 0 })
    sim.control.reset()
  })

  test('the STS credential expires between two parts: the upload renews it and goes on, the bytes exact', async () => {
    const { open, recorded } = recordingClient(sim)
    const slow = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 50 },
      times: Infinity,
    })
    const bytes = testBytes(2 * MiB)
    const upload = open.upload(bytes, { name: 'renewed', extension: 'bin', partSize: 256 * KiB, parallel: 1 })
    await until(() => slow.hits >= 2, 'two parts sent')
    // Past the credential's lifetime (the simulator's default, one hour).
    await sim.control.clock.advance(2 * 3_600_000)
    const asset = await upload.done()
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    expect(recorded.count('/sts-tmp')).toBe(2)
    sim.control.reset()
  })
})
