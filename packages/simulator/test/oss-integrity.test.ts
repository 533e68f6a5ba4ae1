import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningSimulator, startSimulator } from '../src/index.ts'
import { crc64 } from '../src/oss/store/crc64.ts'
import { type AliOssClient, aliOss, rejection } from './support/ali-oss.ts'

// CRC-64 reporting, the corruption fault and ListMultipartUploads, through the whole simulator
// (sts-tmp credentials, the control API) and the real ali-oss client.

const KiB = 1024

interface Sts {
  client: AliOssClient
  dir: string
}

async function stsClient(sim: RunningSimulator): Promise<Sts> {
  const { type, value } = sim.credentials.openToken
  const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/sts-tmp`, {
    method: 'POST',
    headers: { authorization: `${type} ${value}`, 'content-type': 'application/json' },
  })
  const c = ((await response.json()) as { result: Record<string, string> }).result
  const client = aliOss({
    endpoint: c.endPoint as string,
    accessKeyId: c.accessKeyId as string,
    accessKeySecret: c.accessKeySecret as string,
    stsToken: c.securityToken as string,
    bucket: c.bucket as string,
  })
  return { client, dir: c.dir as string }
}

/** The one offset where `a` and `b` (same length) differ; fails unless exactly one does. */
function differingOffsets(a: Buffer, b: Buffer): number[] {
  expect(a.length).toBe(b.length)
  const offsets: number[] = []
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) offsets.push(i)
  return offsets
}

describe.each([
  ['in memory', false],
  ['in a state directory', true],
])('x-oss-hash-crc64ecma, objects %s', (_, onDisk) => {
  let sim: RunningSimulator
  let oss: Sts
  let stateDir: string | undefined
  beforeAll(async () => {
    stateDir = onDisk ? await mkdtemp(join(tmpdir(), 'oss-crc-')) : undefined
    sim = await startSimulator(stateDir ? { stateDir } : {})
    oss = await stsClient(sim)
  })
  afterAll(async () => {
    await sim.stop()
    if (stateDir) await rm(stateDir, { recursive: true, force: true })
  })

  it('is reported by PutObject, HeadObject and GetObject, as the CRC of the bytes', async () => {
    const data = randomBytes(70_001)
    const key = `${oss.dir}crc/put.bin`
    const put = await oss.client.put(key, data)
    expect(put.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(data))
    expect((await oss.client.head(key)).res.headers['x-oss-hash-crc64ecma']).toBe(crc64(data))
    const got = await oss.client.get(key)
    expect(got.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(data))
  })

  it('is the CRC of the parts combined for a multipart object, and per part on UploadPart', async () => {
    const data = randomBytes(250 * KiB + 3)
    const key = `${oss.dir}crc/multi.bin`
    const done = await oss.client.multipartUpload(key, data, { partSize: 100 * KiB, parallel: 1 })
    expect(done.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(data))
    const head = await oss.client.head(key)
    expect(head.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(data))

    const { uploadId } = await oss.client.initMultipartUpload(`${oss.dir}crc/parts.bin`)
    const params = oss.client._objectRequestParams('PUT', `${oss.dir}crc/parts.bin`, {
      subres: { partNumber: 1, uploadId },
    })
    const part = data.subarray(0, 100 * KiB)
    const answer = await oss.client.request({ ...params, content: part, successStatuses: [200] })
    expect(answer.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(part))
    await oss.client.abortMultipartUpload(`${oss.dir}crc/parts.bin`, uploadId)
  })
})

describe('the corrupt fault', () => {
  let sim: RunningSimulator
  let oss: Sts
  beforeAll(async () => {
    sim = await startSimulator({ faultSeed: 7 })
    oss = await stsClient(sim)
  })
  afterAll(() => sim.stop())

  it('stores one part with a byte inverted and reports the CRC of what it stored', async () => {
    const data = randomBytes(300 * KiB)
    const key = `${oss.dir}corrupt/multi.bin`
    const handle = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'corrupt' },
    })
    // ETags are the MD5 of what was sent, so the upload itself succeeds.
    const done = await oss.client.multipartUpload(key, data, { partSize: 100 * KiB, parallel: 1 })
    expect(handle.hits).toBe(1)
    const stored = (await oss.client.get(key)).content
    const [offset, ...more] = differingOffsets(stored, data)
    expect(more).toEqual([])
    expect(offset).toBeGreaterThanOrEqual(100 * KiB)
    expect(offset).toBeLessThan(200 * KiB)
    expect(done.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(stored))
    expect(done.res.headers['x-oss-hash-crc64ecma']).not.toBe(crc64(data))
  })

  it('is reachable over the HTTP control, at a given offset of a PutObject', async () => {
    const response = await fetch(`${sim.urls.base}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { op: 'PutObject' }, action: { type: 'corrupt', offset: 10 } }),
    })
    expect(response.status).toBe(200)
    const data = randomBytes(1000)
    const key = `${oss.dir}corrupt/put.bin`
    const put = await oss.client.put(key, data)
    const stored = (await oss.client.get(key)).content
    expect(differingOffsets(stored, data)).toEqual([10])
    expect(put.res.headers['x-oss-hash-crc64ecma']).toBe(crc64(stored))
    expect((await oss.client.head(key)).res.headers['x-oss-hash-crc64ecma']).toBe(crc64(stored))
  })

  it('picks the same offset again under the same faultSeed', async () => {
    const offsets: number[] = []
    for (const _ of [1, 2]) {
      const other = await startSimulator({ faultSeed: 42 })
      try {
        const client = await stsClient(other)
        other.control.faults.inject({ match: { op: 'PutObject' }, action: { type: 'corrupt' } })
        const data = Buffer.alloc(100_000)
        await client.client.put(`${client.dir}seeded.bin`, data)
        const stored = (await client.client.get(`${client.dir}seeded.bin`)).content
        offsets.push(...differingOffsets(stored, data))
      } finally {
        await other.stop()
      }
    }
    expect(offsets).toHaveLength(2)
    expect(offsets[0]).toBe(offsets[1])
  })
})

describe('ListMultipartUploads', () => {
  let sim: RunningSimulator
  let oss: Sts
  beforeAll(async () => {
    sim = await startSimulator()
    oss = await stsClient(sim)
  })
  afterAll(() => sim.stop())

  it('lists the uploads in progress under a prefix within the credential dir, in pages', async () => {
    const names = ['list/b.bin', 'list/a.bin', 'list/sub/c.bin', 'other.bin'].map((n) => `${oss.dir}${n}`)
    const ids = new Map<string, string>()
    for (const name of names) ids.set(name, (await oss.client.initMultipartUpload(name)).uploadId)

    const all = await oss.client.listUploads({ prefix: `${oss.dir}list/` })
    expect(all.uploads.map((u) => u.name)).toEqual([
      `${oss.dir}list/a.bin`,
      `${oss.dir}list/b.bin`,
      `${oss.dir}list/sub/c.bin`,
    ])
    expect(all.uploads[0]?.uploadId).toBe(ids.get(`${oss.dir}list/a.bin`))
    expect(all.isTruncated).toBe(false)

    const first = await oss.client.listUploads({ prefix: `${oss.dir}list/`, 'max-uploads': 2 })
    expect(first.uploads.map((u) => u.name)).toEqual([`${oss.dir}list/a.bin`, `${oss.dir}list/b.bin`])
    expect(first.isTruncated).toBe(true)
    const second = await oss.client.listUploads({
      prefix: `${oss.dir}list/`,
      'max-uploads': 2,
      'key-marker': first.nextKeyMarker,
      'upload-id-marker': first.nextUploadIdMarker,
    })
    expect(second.uploads.map((u) => u.name)).toEqual([`${oss.dir}list/sub/c.bin`])

    await oss.client.abortMultipartUpload(`${oss.dir}list/b.bin`, ids.get(`${oss.dir}list/b.bin`) as string)
    const after = await oss.client.listUploads({ prefix: `${oss.dir}list/` })
    expect(after.uploads.map((u) => u.name)).not.toContain(`${oss.dir}list/b.bin`)
  })

  it('refuses a prefix outside the credential dir with AccessDenied', async () => {
    const error = await rejection(oss.client.listUploads({ prefix: '' }))
    expect(error.status).toBe(403)
    expect(error.code).toBe('AccessDenied')
    expect(error.requestId).toMatch(/^[0-9A-F]{24}$/)
  })
})
