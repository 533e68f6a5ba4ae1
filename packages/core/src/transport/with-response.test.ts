import { describe, expect, test } from 'vitest'
import type { Logger } from '../logging/logger.ts'
import { createFakeFetch, openFailure, openSuccess } from '../testing/index.ts'
import { createOpenTransport } from './areas.ts'
import type { Clock, ResponseInfo } from './context.ts'
import { operation } from './operation.ts'
import { withResponse } from './with-response.ts'

const instant: Clock = { now: () => 0, random: () => 0, sleep: async () => {} }
const TOKEN = { type: 'Bearer', value: 'ot_fedcba9876543210' }
const PATH = '/open-api/standard/call/service/org-info' as const

function transport(respond: () => Response, extra: { onResponse?: (info: ResponseInfo) => void } = {}) {
  const lines: string[] = []
  const write = (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(fields)}`)
  const logger: Logger = { debug: write, info: write, warn: write, error: write }
  const t = createOpenTransport({
    openUrl: 'https://svc.example',
    token: TOKEN,
    fetch: createFakeFetch(respond),
    logger,
    clock: instant,
    retry: { initialDelayMs: 1, maxDelayMs: 1 },
    ...extra,
  })
  const call = (options?: Parameters<typeof t.send>[1]) =>
    t.send<{ orgList: unknown[] }>({ operation: operation('POST', PATH), idempotent: true }, options)
  return { call, lines }
}

describe('response metadata', () => {
  test('withResponse: the plain value, with the traceId and status of the answer that succeeded', async () => {
    let n = 0
    const { call, lines } = transport(() =>
      n++ === 0
        ? openFailure('MS100003', 'busy', { traceId: 'trace-busy' })
        : openSuccess({ orgList: [] }, { traceId: 'trace-ok' }),
    )
    const { data, response, responses } = await withResponse((options) => call(options))
    expect(data).toEqual({ orgList: [] })
    expect(response).toMatchObject({
      status: 200,
      traceId: 'trace-ok',
      method: 'POST',
      path: PATH,
      attempt: 2,
    })
    expect(responses).toHaveLength(1)
    expect(lines.at(-1)).toBe(
      `service request {"area":"open","method":"POST","path":"${PATH}","attempt":2,"status":200,"traceId":"trace-ok","durationMs":0}`,
    )
  })

  test('the client hook and the call hook both see each success; a failure tells neither', async () => {
    const seen: string[] = []
    const { call } = transport(() => openSuccess({ orgList: [] }, { traceId: 'trace-1' }), {
      onResponse: (info) => seen.push(`client ${info.traceId}`),
    })
    await call({ onResponse: (info) => seen.push(`call ${info.traceId}`) })
    expect(seen).toEqual(['client trace-1', 'call trace-1'])
    const failing = transport(() => openFailure('MB100003', 'nope'), {
      onResponse: (info) => seen.push(`failure ${info.traceId}`),
    })
    await expect(failing.call()).rejects.toThrow(/nope/)
    expect(seen).toHaveLength(2)
  })

  test('an envelope without traceId gives undefined, not a made-up one', async () => {
    const { call } = transport(
      () => new Response('{"code":"0","message":"ok","result":{"orgList":[]}}', { status: 200 }),
    )
    const { response } = await withResponse((options) => call(options))
    expect(response?.traceId).toBeUndefined()
  })
})
