import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'
import { createUploadProxy } from '../src/proxy/index.ts'
import { KiB, rawOss, rejection, servedHash, sha256, testBytes } from './upload/helpers.ts'

// sts-tmp may answer an empty `dir` (spec: UploadCredential.dir): a credential for the whole
// bucket, keys at its root. The simulator's `stsDir: 'empty'` quirk answers so; every way an
// upload goes (one file, many, multipart, cleanup, the proxy's caller directories) runs on it.

let sim: RunningSimulator
const open = () => createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })

beforeAll(async () => {
  sim = await startSimulator({ quirks: { stsDir: 'empty' } })
})
afterAll(async () => {
  await sim?.stop()
})

describe('an sts-tmp credential with an empty dir (the whole bucket)', () => {
  test('the simulator answers dir "" and its store lets the credential write at the root', async () => {
    expect((await open().credentials()).dir).toBe('')
  })

  test('upload() puts the object at the bucket root, saves it, and the bytes are served exact', async () => {
    const bytes = testBytes(300 * KiB)
    const asset = await open()
      .upload(bytes, { name: 'root', extension: 'bin', partSize: 100 * KiB })
      .done()
    expect(asset.key).toMatch(/^[0-9a-f]{32}\/root\.bin$/)
    expect(await servedHash(asset.accessUrl)).toBe(sha256(bytes))
  })

  test('uploadMany saves every file; cleanupUploads lists from the root and aborts what failed uploads kept', async () => {
    const client = open()
    const results = await client
      .uploadMany([1, 2, 3].map((n) => ({ source: testBytes(n * KiB), name: `f${n}`, extension: 'bin' })))
      .done()
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
    })
    const failed = client.upload(testBytes(300 * KiB), {
      name: 'left',
      extension: 'bin',
      partSize: 100 * KiB,
      retry: false,
    })
    await rejection(failed.done())
    const cleaned = await client.cleanupUploads({ olderThanMs: 0 })
    expect(cleaned.aborted.map((u) => u.uploadId)).toContain(failed.uploadId)
    const listParts = rawOss(await client.credentials()).listParts(
      failed.key as string,
      failed.uploadId as string,
    )
    expect(await rejection(listParts)).toMatchObject({ code: 'NoSuchUpload' })
  })

  test("through the proxy each caller still has a directory of its own, and reaches no other caller's keys", async () => {
    const proxy = createUploadProxy({
      openUrl: sim.urls.open,
      token: sim.credentials.openToken,
      authorize: (request) => ({ id: request.headers.get('x-user') ?? 'nobody' }),
    })
    const browser = (user: string) =>
      createOpenClient({
        proxyUrl: 'http://app.test/upload',
        headers: { 'x-user': user },
        fetch: async (input, init) => proxy(new Request(input, init)),
      })
    const bytes = testBytes(150 * KiB)
    const alice = await browser('alice').upload(bytes, { name: 'a', extension: 'bin' }).done()
    expect(alice.key).toMatch(/^u[\w-]{22}\/[0-9a-f]{32}\/a\.bin$/)
    expect(await servedHash(alice.accessUrl)).toBe(sha256(bytes))
    const sign = (user: string, key: string) =>
      proxy(
        new Request('http://app.test/upload/oss/sign', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user': user },
          body: JSON.stringify({ requests: [{ op: 'PutObject', key }] }),
        }),
      )
    expect((await sign('bob', alice.key)).status).toBe(403)
    expect((await sign('bob', 'anything/at/the/root.bin')).status).toBe(403)
    expect((await sign('alice', alice.key)).status).toBe(200)
  })
})
