import { ServiceApiError, UploadError } from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'

// `supportId`, the id to quote to support, as the simulator answers: an API error's traceId, an
// upload error's object-storage request id.

let sim: RunningSimulator
beforeAll(async () => {
  sim = await startSimulator()
})
afterAll(() => sim.stop())

const client = () =>
  createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken, uploads: { retry: false } })

test("an answer of the service: supportId is the envelope's traceId", async () => {
  const material = { key: 'never-uploaded/brochure.pdf', name: 'brochure', extension: 'pdf', size: 10 }
  const error = await client()
    .materials.save({ orgId: '1001', materials: [material] })
    .catch((e: unknown) => e)
  expect(ServiceApiError.isInstance(error)).toBe(true)
  const { traceId, supportId, requestId } = error as ServiceApiError
  expect(traceId).toMatch(/\S/)
  expect([supportId, requestId]).toEqual([traceId, undefined])
  expect(JSON.parse(JSON.stringify(error))).toMatchObject({ traceId, supportId: traceId })
})

test("an object-storage failure: supportId is OSS's x-oss-request-id", async () => {
  const fault = sim.control.faults.inject({
    match: { target: 'oss', op: 'PutObject' },
    action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
    times: Infinity,
  })
  try {
    const error = await client()
      .upload(Buffer.from('hello'), { name: 'hello', extension: 'txt', orgId: '1001' })
      .done()
      .catch((e: unknown) => e)
    expect(UploadError.isInstance(error)).toBe(true)
    const { requestId, supportId, code } = error as UploadError
    expect(code).toBe('AccessDenied')
    expect(requestId).toMatch(/^[0-9A-F]{24}$/)
    expect(supportId).toBe(requestId)
  } finally {
    fault.remove()
  }
})
