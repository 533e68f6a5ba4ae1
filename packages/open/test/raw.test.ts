import { ServicePermissionError, ServiceValidationError } from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient, type ResponseInfo } from '../src/index.ts'

// `open.raw` against the simulator: the open token on /open-api paths and the API key on
// /api/service paths, the envelope whole, lossless ids both ways, a busy code in a 200 envelope
// retried as the wrapped calls retry it.

let sim: RunningSimulator
beforeAll(async () => {
  sim = await startSimulator()
})
afterAll(() => sim.stop())
afterEach(() => sim.control.faults.clear())

function client(withApiKey = true) {
  const seen: ResponseInfo[] = []
  const sent: string[] = []
  const open = createOpenClient({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    ...(withApiKey ? { apiKey: sim.credentials.apiKey } : {}),
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    onResponse: (info) => seen.push(info),
    fetch: async (input, init) => {
      sent.push(String(init?.body ?? ''))
      return fetch(input, init)
    },
  })
  return { open, seen, sent }
}

describe('open.raw', () => {
  test('org-info: the whole envelope (code, traceId, result), ids as strings', async () => {
    const { open } = client()
    const { data } = await open.raw.POST('/open-api/standard/call/service/org-info')
    expect(data).toMatchObject({ code: '0', traceId: expect.any(String) })
    expect(data?.result?.orgList?.map((o) => o.id)).toContain('1001')
  })

  test('a 19-digit id in a body goes out as a JSON integer with every digit', async () => {
    const { open, sent } = client()
    const folderId = '1753946835010000001'
    // The object was never uploaded: the save is refused, after the body went out.
    await open.raw
      .POST('/open-api/standard/call/service/material-save', {
        body: {
          orgId: '1001',
          materials: [{ key: 'upload/x/never.txt', name: 'never', extension: 'txt', size: 1, folderId }],
        },
      })
      .catch(() => undefined)
    expect(sent.at(-1)).toContain(`"folderId":${folderId}`)
    expect(sent.at(-1)).toContain('"orgId":1001')
  })

  test('the subscription paths use the API key; without one, a ServiceValidationError before anything is sent', async () => {
    const { open } = client()
    const { data } = await open.raw.GET('/api/service/material-automation-event-types')
    expect(JSON.stringify(data)).toContain('MATERIAL_DELETED')

    const bare = client(false)
    const refused = await bare.open.raw
      .GET('/api/service/material-automation-event-types')
      .catch((e: unknown) => e)
    expect(ServiceValidationError.isInstance(refused)).toBe(true)
    expect(bare.sent).toEqual([])
  })

  test('a refusal in a 200 envelope throws the typed error, as a wrapped call does: `error` is never set', async () => {
    const { open } = client()
    const material = { key: 'elsewhere/brochure.pdf', name: 'brochure', extension: 'pdf', size: 10 }
    const outcome = await open.raw
      .POST('/open-api/standard/call/service/material-save', { body: { materials: [material] } })
      .then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      )
    expect(outcome).not.toHaveProperty('answer')
    // A key outside the upload directory: the service answers MB100002 in a 200 envelope.
    expect(ServicePermissionError.isInstance((outcome as { error: unknown }).error)).toBe(true)
    expect((outcome as { error: ServicePermissionError }).error.code).toBe('MB100002')
  })

  test('busy (MS100003 in a 200 envelope) is retried, as the wrapped calls retry it', async () => {
    const { open, seen } = client()
    sim.control.faults.inject({
      match: { target: 'open', path: 'org-info' },
      action: { type: 'open-code', code: 'MS100003' },
    })
    const { data } = await open.raw.POST('/open-api/standard/call/service/org-info')
    expect(data?.code).toBe('0')
    expect(seen.at(-1)?.attempt).toBe(2)
  })
})
