import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import {
  type ServiceError,
  ServicePermissionError,
  ServiceValidationError,
  type UploadCredential,
  UploadError,
} from '@service-sdk/core'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  type CheckpointStore,
  SpaceNotWritableError,
  type UploadCheckpoint,
  type UploadProgress,
} from '../src/index.ts'
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

// The upload engine against the simulator's object store, through the real ali-oss: every test
// checks what the server holds (objects, multipart uploads, assets), not only what the SDK says.

let verify: UploadCredential

const PERSONAL_FOLDER = '1753946835000000002'
const ACME = '1001'
const ACME_FOLDER = '1753946835010000002'
const STARK_VIEW_ONLY = '1006'
const EXPIRED_SPACE = '1004'

useUploadFixture()
beforeAll(async () => {
  verify = await recordingClient(sim).open.credentials()
})

const materials = () => sim.control.snapshot().materials
const multipartGone = async (key: string, uploadId: string) =>
  expect(await rejection((await fresh()).listParts(key, uploadId))).toMatchObject({ code: 'NoSuchUpload' })
const objectGone = async (key: string) =>
  expect(await rejection((await fresh()).head(key))).toMatchObject({ status: 404 })

describe('sources and sizes', () => {
  test('a small file from a path: one PUT, name and extension from the file name, the asset serves its bytes', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(300 * KiB)
    const path = await work.file('report.final.pdf', bytes)
    const ops = countOss(sim, ['PutObject', 'InitiateMultipartUpload', 'UploadPart'])
    const asset = await open
      .upload(path, { folderId: PERSONAL_FOLDER, description: 'Q3', tags: ['finance'] })
      .done()
    expect(ops()).toEqual({ PutObject: 1, InitiateMultipartUpload: 0, UploadPart: 0 })
    expect(asset).toMatchObject({ name: 'report.final', extension: 'pdf', size: bytes.length })
    expect(asset.id).toMatch(/^\d+$/)
    expect(asset.key).toMatch(new RegExp(`^${verify.dir}[0-9a-f]{32}/report\\.final\\.pdf$`))
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    expect(materials().find((m) => m.id === asset.id)).toMatchObject({
      folderId: PERSONAL_FOLDER,
      description: 'Q3',
      tags: ['finance'],
      size: bytes.length,
    })
  })

  test('a large file from a path: parallel parts of partSize, complete once, exactly its bytes', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(2 * MiB + 5 * KiB)
    const path = await work.file('big.bin', bytes)
    const ops = countOss(sim, [
      'PutObject',
      'InitiateMultipartUpload',
      'UploadPart',
      'CompleteMultipartUpload',
    ])
    const upload = open.upload(path, { partSize: 256 * KiB, parallel: 3 })
    const asset = await upload.done()
    expect(ops()).toEqual({
      PutObject: 0,
      InitiateMultipartUpload: 1,
      UploadPart: 9,
      CompleteMultipartUpload: 1,
    })
    expect(upload.uploadId).toEqual(expect.any(String))
    expect(asset.size).toBe(bytes.length)
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    const head = await (await fresh()).head(asset.key)
    expect(head.res.headers['x-oss-object-type']).toBe('Multipart')
  })

  test('a Buffer, a Uint8Array and an ArrayBuffer, in one PUT and in parts', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(700 * KiB)
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const sources = [bytes, view, view.slice().buffer]
    for (const source of sources) {
      for (const partSize of [1 * MiB, 128 * KiB]) {
        const asset = await open.upload(source, { name: 'memory', extension: '.bin', partSize }).done()
        expect(asset).toMatchObject({ name: 'memory', extension: 'bin', size: bytes.length })
        expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
      }
    }
  })

  test('a Node stream of unknown length: parts in order as it arrives, size counted', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(1 * MiB + 333)
    // Uneven chunks, so parts are cut across chunk boundaries.
    async function* uneven() {
      for (let at = 0, n = 1; at < bytes.length; n++) {
        const size = (n * 7919) % (90 * KiB)
        yield bytes.subarray(at, at + size)
        at += size
      }
    }
    const ops = countOss(sim, ['UploadPart', 'PutObject'])
    const progress: UploadProgress[] = []
    const asset = await open
      .upload(Readable.from(uneven()), {
        name: 'stream',
        extension: 'bin',
        partSize: 200 * KiB,
        onProgress: (p) => progress.push(p),
      })
      .done()
    expect(ops()).toEqual({ UploadPart: 6, PutObject: 0 })
    expect(asset.size).toBe(bytes.length)
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    // The size of a stream is known once it has ended.
    expect(progress[0]?.total).toBeUndefined()
    expect(progress.at(-1)).toMatchObject({ phase: 'done', loaded: bytes.length, total: bytes.length })
  })

  test('a short stream, a web ReadableStream and an async iterable: one PUT each', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(50 * KiB)
    const make = [
      () => Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]),
      () => new Blob([new Uint8Array(bytes)]).stream(),
      async function* () {
        yield bytes
      },
    ]
    for (const source of make) {
      const ops = countOss(sim, ['PutObject', 'UploadPart'])
      const asset = await open.upload(source(), { name: 'short', extension: 'bin' }).done()
      expect(ops()).toEqual({ PutObject: 1, UploadPart: 0 })
      expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
      sim.control.faults.clear()
    }
  })

  test('a file stream keeps its file name; an empty file is an empty object', async () => {
    const { open } = recordingClient(sim)
    const path = await work.file('notes.txt', Buffer.from('hello'))
    const { createReadStream } = await import('node:fs')
    const fromStream = await open.upload(createReadStream(path)).done()
    expect(fromStream).toMatchObject({ name: 'notes', extension: 'txt', size: 5 })
    const empty = await open.upload(await work.file('empty.txt', new Uint8Array(0))).done()
    expect(empty.size).toBe(0)
    expect(await servedHash(empty.accessUrl)).toBe(sha256(new Uint8Array(0)))
  })

  test('keys keep names with spaces, "+" and non-ASCII characters, and are unique per upload', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(400 * KiB)
    const name = 'a b+c é 文件 (1)'
    const path = await work.file(`${name}.txt`, bytes)
    const first = await open.upload(path, { partSize: 128 * KiB }).done()
    const second = await open.upload(path).done()
    for (const asset of [first, second]) {
      expect(asset.name).toBe(name)
      expect(asset.key.startsWith(verify.dir)).toBe(true)
      expect(asset.key.endsWith(`/${name}.txt`)).toBe(true)
      expect(Number((await (await fresh()).head(asset.key)).res.headers['content-length'])).toBe(bytes.length)
      expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    }
    expect(first.key).not.toBe(second.key)
  })

  test('a chosen key goes below the credential directory', async () => {
    const { open } = recordingClient(sim)
    const asset = await open
      .upload(Buffer.from('x'), { name: 'x', extension: 'txt', key: 'reports/2025/x+y.txt' })
      .done()
    expect(asset.key).toBe(`${verify.dir}reports/2025/x+y.txt`)
  })

  test('progress is byte-level: events within a part, phases in order, loaded reaches total', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(2 * MiB)
    const path = await work.file('progress.bin', bytes)
    const seen: UploadProgress[] = []
    const upload = open.upload(path, { partSize: 1 * MiB, parallel: 1, onProgress: (p) => seen.push(p) })
    const late: UploadProgress[] = []
    upload.onProgress((p) => late.push(p))
    await upload.done()
    const phases = [...new Set(seen.map((p) => p.phase))]
    expect(phases).toEqual(['credentials', 'uploading', 'saving', 'done'])
    const loaded = seen.filter((p) => p.phase === 'uploading').map((p) => p.loaded)
    // Two parts of 1 MiB, one at a time: counts inside the first part, not only at its end.
    expect(loaded.filter((n) => n > 0 && n < 1 * MiB).length).toBeGreaterThan(2)
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b))
    expect(upload.progress).toMatchObject({ phase: 'done', loaded: bytes.length, total: bytes.length })
    expect(late.length).toBeGreaterThan(0)
  })

  test('width and height are read from an image when not given', async () => {
    const { open } = recordingClient(sim)
    // A PNG signature and IHDR chunk (640 x 480), then filler.
    const png = Buffer.alloc(2 * KiB)
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(png)
    png.writeUInt32BE(640, 16)
    png.writeUInt32BE(480, 20)
    const asset = await open.upload(await work.file('photo.png', png)).done()
    expect(materials().find((m) => m.id === asset.id)).toMatchObject({ width: 640, height: 480 })
    const given = await open.upload(await work.file('given.png', png), { width: 1, height: 2 }).done()
    expect(materials().find((m) => m.id === given.id)).toMatchObject({ width: 1, height: 2 })
  })
})

describe('credentials', () => {
  test('credentials expiring mid-upload: fresh ones, a new client, the upload completes', async () => {
    const { open, recorded } = recordingClient(sim)
    const bytes = testBytes(2 * MiB)
    const path = await work.file('expiring.bin', bytes)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'expire-credentials' },
    })
    const asset = await open.upload(path, { partSize: 256 * KiB, parallel: 2 }).done()
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    expect(recorded.count('/sts-tmp')).toBe(2)
    expect(recorded.logs.filter((l) => l.includes('switched to new STS credentials'))).toHaveLength(1)
  })

  test('every credential of the client expired between uploads (InvalidAccessKeyId or SecurityTokenExpired): recovered', async () => {
    const { open, recorded } = recordingClient(sim)
    await open.upload(Buffer.from('one'), { name: 'one', extension: 'txt' }).done()
    sim.control.expireCredentials()
    const asset = await open
      .upload(testBytes(600 * KiB), { name: 'two', extension: 'bin', partSize: 200 * KiB })
      .done()
    expect(asset.size).toBe(600 * KiB)
    expect(recorded.count('/sts-tmp')).toBe(2)
  })

  test('uploads share credentials while fresh; credentialTtlMs bounds their reuse', async () => {
    const shared = recordingClient(sim)
    await Promise.all(
      [1, 2, 3].map((n) =>
        shared.open.upload(Buffer.from(`file ${n}`), { name: `f${n}`, extension: 'txt' }).done(),
      ),
    )
    expect(shared.recorded.count('/sts-tmp')).toBe(1)
    const never = recordingClient(sim, { uploads: { credentialTtlMs: 0 } })
    await never.open.upload(Buffer.from('a'), { name: 'a', extension: 'txt' }).done()
    await never.open.upload(Buffer.from('b'), { name: 'b', extension: 'txt' }).done()
    expect(never.recorded.count('/sts-tmp')).toBeGreaterThanOrEqual(2)
  })

  test('credentials the object-storage client cannot use (a malformed bucket name): UploadError, nothing sent', async () => {
    const { open } = recordingClient(sim, {
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        if (!String(input instanceof Request ? input.url : input).endsWith('/sts-tmp')) return response
        const body = (await response.json()) as { result: UploadCredential }
        return Response.json({ ...body, result: { ...body.result, bucket: 'B!' } })
      },
    })
    const ops = countOss(sim, ['PutObject'])
    const error = await rejection(open.upload(Buffer.from('x'), { name: 'x', extension: 'txt' }).done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'invalid_credentials' })
    expect(ops()).toEqual({ PutObject: 0 })
  })

  test('credentials the storage keeps refusing: a bounded number of renewals, then an UploadError', async () => {
    const { open, recorded } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 403, ossCode: 'InvalidAccessKeyId' },
      times: Infinity,
    })
    const error = await rejection(open.upload(Buffer.from('x'), { name: 'x', extension: 'txt' }).done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ ossCode: 'InvalidAccessKeyId', status: 403 })
    expect(recorded.count('/sts-tmp')).toBe(4)
    expect(recorded.count('/material-save')).toBe(0)
  })
})

describe('failures', () => {
  test('a part failing with 503 is retried and the upload completes', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(1 * MiB)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 503 },
      times: 2,
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'reset' },
    })
    const ops = countOss(sim, ['UploadPart'])
    const asset = await open.upload(bytes, { name: 'retried', extension: 'bin', partSize: 256 * KiB }).done()
    // 4 parts; the injected failures answered 3 requests that the counter never saw.
    expect(ops()).toEqual({ UploadPart: 4 })
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
  })

  test('a single PUT (signed without ali-oss on Node) failing with 503 and a reset is retried; one refused for good is an UploadError with OSS code and request id', async () => {
    const { open } = recordingClient(sim)
    const bytes = testBytes(100 * KiB)
    const path = await work.file('retried-put.bin', bytes)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 503 },
      times: 1,
    })
    sim.control.faults.inject({ match: { target: 'oss', op: 'PutObject' }, action: { type: 'reset' } })
    const ops = countOss(sim, ['PutObject'])
    const asset = await open.upload(path).done()
    expect(ops()).toEqual({ PutObject: 1 })
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))

    sim.control.faults.clear() // the counter's rule would match first
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
    })
    const error = await rejection(open.upload(path).done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({
      code: 'AccessDenied',
      ossCode: 'AccessDenied',
      status: 403,
      isRetryable: false,
    })
    expect((error as UploadError).requestId).toEqual(expect.any(String))
    expect((error as Error).message).toMatch(/PutObject failed after 1 attempt/)
  })

  test('a part failing for good, with keepPartsOnFailure: false: UploadError naming the part and the OSS code; the multipart upload is aborted', async () => {
    const { open, recorded } = recordingClient(sim)
    const before = materials().length
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'status', status: 503 },
      times: Infinity,
    })
    const ops = countOss(sim, ['AbortMultipartUpload'])
    const upload = open.upload(testBytes(1 * MiB), {
      name: 'doomed',
      extension: 'bin',
      partSize: 200 * KiB,
      keepPartsOnFailure: false,
    })
    const error = await rejection(upload.done())
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ partNumber: 3, ossCode: 'InternalError', status: 503, isRetryable: true })
    expect((error as UploadError).requestId).toEqual(expect.any(String))
    expect((error as Error).message).toMatch(/part 3/)
    expect(ops()).toEqual({ AbortMultipartUpload: 1 })
    await multipartGone(upload.key!, upload.uploadId!)
    await objectGone(upload.key!)
    expect(materials().length).toBe(before)
    expect(recorded.count('/material-save')).toBe(0)
  })

  test('a refusal (4xx) is not retried', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'status', status: 400, ossCode: 'InvalidArgument' },
      times: Infinity,
    })
    const error = await rejection(open.upload(Buffer.from('x'), { name: 'x', extension: 'txt' }).done())
    expect(error).toMatchObject({
      ossCode: 'InvalidArgument',
      status: 400,
      isRetryable: false,
      partNumber: undefined,
    })
    expect((error as Error).message).toMatch(/after 1 attempt:/)
  })

  test('a stream that fails mid-way: UploadError source_error, the multipart upload aborted', async () => {
    const { open } = recordingClient(sim)
    async function* failing() {
      yield testBytes(300 * KiB)
      throw new Error('disk on fire')
    }
    const upload = open.upload(failing(), { name: 'broken', extension: 'bin', partSize: 100 * KiB })
    const error = await rejection(upload.done())
    expect(error).toMatchObject({ code: 'source_error' })
    expect((error as Error).message).toMatch(/disk on fire/)
    await multipartGone(upload.key!, upload.uploadId!)
  })
})

describe('abort', () => {
  for (const how of ['abort()', 'signal'] as const) {
    test(`${how} mid-way: parts in flight are cut, no object, the multipart upload is aborted on the server`, async () => {
      const { open, recorded } = recordingClient(sim)
      // Slow parts, so some are in flight when the abort comes.
      sim.control.faults.inject({
        match: { target: 'oss', op: 'UploadPart' },
        action: { type: 'latency', ms: 100 },
        times: Infinity,
      })
      const controller = new AbortController()
      const upload = open.upload(testBytes(3 * MiB), {
        name: 'aborted',
        extension: 'bin',
        partSize: 256 * KiB,
        parallel: 3,
        signal: controller.signal,
      })
      await until(() => upload.uploadId !== undefined && upload.progress.loaded > 0, 'bytes in flight')
      if (how === 'abort()') await upload.abort()
      else controller.abort()
      const error = await rejection(upload.done())
      expect(error).toBeInstanceOf(DOMException)
      expect((error as DOMException).name).toBe('AbortError')
      await multipartGone(upload.key!, upload.uploadId!)
      await objectGone(upload.key!)
      expect(recorded.count('/material-save')).toBe(0)
    })
  }

  test('abort() during a single PUT leaves no object; abort() after done() changes nothing', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject' },
      action: { type: 'latency', ms: 200 },
    })
    const upload = open.upload(testBytes(500 * KiB), { name: 'put', extension: 'bin' })
    await until(() => upload.progress.loaded > 0, 'the body in flight')
    await upload.abort(new Error('changed my mind'))
    expect(await rejection(upload.done())).toMatchObject({ message: 'changed my mind' })
    await objectGone(upload.key!)

    const finished = open.upload(Buffer.from('done'), { name: 'done', extension: 'txt' })
    const asset = await finished.done()
    await finished.abort()
    expect(await finished.done()).toEqual(asset)
  })
})

describe('spaces and input', () => {
  test('a view-only or expired space: SpaceNotWritableError before credentials or any byte', async () => {
    for (const orgId of [STARK_VIEW_ONLY, EXPIRED_SPACE, '999999']) {
      const { open, recorded } = recordingClient(sim)
      const ops = countOss(sim, ['PutObject', 'InitiateMultipartUpload'])
      const error = await rejection(
        open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', orgId }).done(),
      )
      expect(SpaceNotWritableError.isInstance(error)).toBe(true)
      expect(ServicePermissionError.isInstance(error)).toBe(false)
      expect((error as Error).message).toMatch(/Nothing was uploaded/)
      expect(recorded.calls.map((c) => c.split('/').at(-1))).toEqual(['org-info'])
      expect(ops()).toEqual({ PutObject: 0, InitiateMultipartUpload: 0 })
      sim.control.faults.clear()
    }
  })

  test('orgId 1 saves into the personal space (no orgId sent); a writable team space gets its orgId', async () => {
    const { open, recorded } = recordingClient(sim)
    const personal = await open.upload(Buffer.from('p'), { name: 'p', extension: 'txt', orgId: 1 }).done()
    expect(recorded.calls.some((c) => c.endsWith('/org-info'))).toBe(false)
    const team = await open
      .upload(Buffer.from('t'), { name: 't', extension: 'txt', orgId: ACME, folderId: ACME_FOLDER })
      .done()
    const saves = recorded.bodies
      .filter((b) => b.path.endsWith('/material-save'))
      .map((b) => JSON.parse(b.body))
    expect(saves[0]).not.toHaveProperty('orgId')
    expect(saves[1]).toMatchObject({ orgId: Number(ACME) })
    expect(materials().find((m) => m.id === personal.id)?.space).toMatch(/^u:/)
    expect(materials().find((m) => m.id === team.id)).toMatchObject({
      space: `t:${ACME}`,
      folderId: ACME_FOLDER,
    })
  })

  test('bad input: ServiceValidationError before any request', async () => {
    const { open, recorded } = recordingClient(sim)
    const thrown = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        return error
      }
      throw new Error('expected a throw')
    }
    const sync = [
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', partSize: 1000 }),
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', parallel: 0 }),
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', key: '../escape' }),
      // Half a surrogate pair: no URL could carry the key.
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', key: 'x/a\ud800.txt' }),
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', folderId: 'abc' }),
      () => open.upload(Buffer.from('x'), { name: 'x', extension: 'txt', surprise: true } as never),
      () => open.upload(42 as never),
      () => open.uploadMany([Buffer.from('x'), 7 as never, { source: 'a.txt', width: -1 }]),
    ]
    for (const run of sync) expect(ServiceValidationError.isInstance(thrown(run))).toBe(true)
    const many = thrown(sync.at(-1)!) as ServiceValidationError
    expect(many.issues.map((i) => i.path)).toEqual(['sources.1', 'sources.2.width'])

    const late = [
      open.upload(Buffer.from('x')).done(),
      open.upload(join(work.dir, 'missing.txt')).done(),
      open.upload(work.dir).done(),
      open.upload(await work.file('README', Buffer.from('x'))).done(),
    ]
    for (const done of late) {
      const error = await rejection(done)
      expect(ServiceValidationError.isInstance(error)).toBe(true)
    }
    expect(recorded.calls).toEqual([])
  })

  test('secrets never appear in errors, logs or checkpoints', async () => {
    const { open, recorded } = recordingClient(sim)
    const checkpoints = join(work.dir, 'secret-check')
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'expire-credentials' },
    })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 4 },
      action: { type: 'status', status: 403, ossCode: 'SignatureDoesNotMatch' },
      times: Infinity,
    })
    const seen: string[] = []
    const store: CheckpointStore = {
      load: () => undefined,
      save: (checkpoint) => {
        seen.push(JSON.stringify(checkpoint))
      },
      remove: () => {},
    }
    const path = await work.file('secret.bin', testBytes(1 * MiB))
    const errors = [
      await rejection(open.upload(path, { partSize: 200 * KiB, parallel: 1, checkpoint: store }).done()),
      await rejection(open.upload(path, { partSize: 200 * KiB, checkpoint: checkpoints }).done()),
    ]
    const issued = sim.control.snapshot().sts.flatMap((s) => [s.accessKeySecret, s.securityToken])
    const texts = [
      ...errors.map((e) => JSON.stringify(e)),
      ...errors.map((e) => String((e as Error).message)),
      ...errors.map((e) => JSON.stringify((e as ServiceError).toJSON())),
      ...recorded.logs,
      ...seen,
    ]
    expect(seen.length).toBeGreaterThan(0)
    for (const text of texts) {
      for (const secret of [...issued, sim.credentials.openToken.value]) expect(text).not.toContain(secret)
      // No signed header: `OSS <AccessKeyId>:<signature>`, or the header names themselves.
      expect(text).not.toMatch(/OSS [\w.]+:|authorization|x-oss-security-token/i)
    }
    expect(errors.every((e) => UploadError.isInstance(e) && e.ossCode === 'SignatureDoesNotMatch')).toBe(true)
  })
})

describe('checkpoints', () => {
  test('a checkpoint file is written while uploading, holds no secret, and is removed once the asset is saved', async () => {
    const { open } = recordingClient(sim)
    const directory = join(work.dir, 'checkpoints-1')
    const path = await work.file('with-checkpoint.bin', testBytes(1 * MiB))
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 30 },
      times: Infinity,
    })
    const upload = open.upload(path, { partSize: 128 * KiB, parallel: 2, checkpoint: directory })
    await until(() => upload.uploadId !== undefined, 'the upload id')
    let file: UploadCheckpoint | undefined
    for (let tries = 0; tries < 200 && !file; tries++) {
      const names = await readdir(directory).catch(() => [])
      const json = names.find((n) => n.endsWith('.json'))
      if (json) file = JSON.parse(await readFile(join(directory, json), 'utf8')) as UploadCheckpoint
      else await new Promise((r) => setTimeout(r, 5))
    }
    expect(file).toMatchObject({
      version: 1,
      source: { name: path, size: MiB },
      endpoint: sim.urls.oss,
      bucket: verify.bucket,
      key: upload.key,
      uploadId: upload.uploadId,
      partSize: 128 * KiB,
    })
    expect(Object.keys(file ?? {}).sort()).toEqual([
      'bucket',
      'endpoint',
      'key',
      'partSize',
      'parts',
      'source',
      'updatedAt',
      'uploadId',
      'version',
    ])
    await upload.done()
    expect((await readdir(directory)).filter((n) => n.endsWith('.json'))).toEqual([])
  })

  test('resume from a store (the browser way): only the missing parts go up, under the same upload', async () => {
    const first = recordingClient(sim)
    const bytes = testBytes(1 * MiB)
    const path = await work.file('resumable.bin', bytes)
    const saved = new Map<string, UploadCheckpoint>()
    const store: CheckpointStore = {
      load: (source) => saved.get(source.name),
      save: (checkpoint) => {
        saved.set(checkpoint.source.name, checkpoint)
      },
      remove: (source) => {
        saved.delete(source.name)
      },
    }
    // A first attempt that dies after 3 parts: its checkpoint is what a crashed process leaves.
    const held = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 60_000 },
      skip: 3,
      times: Infinity,
    })
    const crashed = first.open.upload(path, { partSize: 128 * KiB, parallel: 1, checkpoint: store })
    await until(
      () => held.hits === 1 && saved.get(path)?.parts.length === 3,
      'three parts stored, the fourth held',
    )
    const left = structuredClone(saved.get(path)) as UploadCheckpoint
    sim.control.faults.clear()

    const second = recordingClient(sim)
    const ops = countOss(sim, ['UploadPart', 'InitiateMultipartUpload', 'ListParts'], left.key)
    const store2: CheckpointStore = { ...store, load: () => left }
    const resumed = second.open.upload(path, { checkpoint: store2 })
    const asset = await resumed.done()
    expect(resumed.uploadId).toBe(left.uploadId)
    expect(ops()).toEqual({ UploadPart: 5, InitiateMultipartUpload: 0, ListParts: 1 })
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
    await crashed.abort()
  })
})

describe('uploadMany', () => {
  test('many files: one sts-tmp call, material-save in batches, one progress view', async () => {
    const { open, recorded } = recordingClient(sim, { maxMaterialsPerSave: 10 })
    const files = await Promise.all(
      Array.from({ length: 25 }, (_, i) => work.file(`many-${i}.txt`, Buffer.from(`file number ${i}`))),
    )
    const views: Array<{ loaded: number; files: { saved: number } }> = []
    const batch = open.uploadMany(
      files.map((source, i) => (i === 0 ? { source, name: 'first', tags: ['own'] } : source)),
      { folderId: PERSONAL_FOLDER, tags: ['shared'], concurrency: 4, onProgress: (p) => views.push(p) },
    )
    const results = await batch.done()
    expect(results.map((r) => r.status)).toEqual(new Array(25).fill('fulfilled'))
    expect(results.map((r) => r.index)).toEqual(files.map((_, i) => i))
    expect(recorded.count('/sts-tmp')).toBe(1)
    expect(recorded.count('/material-save')).toBe(3)
    const assets = results.map((r) => (r.status === 'fulfilled' ? r.asset : undefined))
    expect(assets[0]).toMatchObject({ name: 'first' })
    expect(assets[7]).toMatchObject({ name: 'many-7', extension: 'txt' })
    expect(materials().find((m) => m.id === assets[0]?.id)).toMatchObject({
      tags: ['own'],
      folderId: PERSONAL_FOLDER,
    })
    expect(materials().find((m) => m.id === assets[1]?.id)).toMatchObject({ tags: ['shared'] })
    const total = files.reduce((sum, _, i) => sum + `file number ${i}`.length, 0)
    expect(batch.progress).toMatchObject({
      phase: 'done',
      loaded: total,
      total,
      files: { total: 25, uploaded: 25, saved: 25, failed: 0 },
    })
    expect(views.length).toBeGreaterThan(25)
  })

  test('a failing file does not stop the others', async () => {
    const { open } = recordingClient(sim)
    const good = await work.file('good.txt', Buffer.from('good'))
    const results = await open.uploadMany([good, join(work.dir, 'nope.txt'), good]).done()
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(ServiceValidationError.isInstance((results[1] as { error: unknown }).error)).toBe(true)
  })

  test('abort() stops every file and aborts their multipart uploads', async () => {
    const { open } = recordingClient(sim)
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 100 },
      times: Infinity,
    })
    const ops = countOss(sim, ['AbortMultipartUpload', 'InitiateMultipartUpload'])
    const aborts = () => ({ AbortMultipartUpload: ops().AbortMultipartUpload })
    const batch = open.uploadMany(
      [1, 2, 3].map((n) => ({ source: testBytes(1 * MiB), name: `a${n}`, extension: 'bin' })),
      { partSize: 128 * KiB, concurrency: 3 },
    )
    await until(
      () => ops().InitiateMultipartUpload === 3 && batch.progress.loaded > 0,
      'three uploads in flight',
    )
    await batch.abort()
    expect((await rejection(batch.done())) as DOMException).toMatchObject({ name: 'AbortError' })
    expect(aborts().AbortMultipartUpload).toBe(3)
  })

  test('a space that is not writable: the batch does not start', async () => {
    const { open, recorded } = recordingClient(sim)
    const error = await rejection(open.uploadMany([Buffer.from('x')], { orgId: STARK_VIEW_ONLY }).done())
    expect(error).toMatchObject({
      name: 'SpaceNotWritableError',
      reason: 'view_only',
      orgId: STARK_VIEW_ONLY,
    })
    expect(recorded.count('/sts-tmp')).toBe(0)
  })
})
