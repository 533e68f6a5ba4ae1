import { ServicePermissionError, ServiceServerError, ServiceTimeoutError } from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTeamClient, type ResponseInfo } from '../src/index.ts'

// `team.raw`: openapi-fetch typed by the spec's paths, through the client's transport, against
// the simulator: the team key, lossless ids, typed errors, retries (GET yes, POST only when never
// acted on), per-call timeouts, the onResponse hook with the path template.

let sim: RunningSimulator
beforeAll(async () => {
  sim = await startSimulator()
})
afterAll(() => sim.stop())
afterEach(() => sim.control.faults.clear())

function client() {
  const seen: ResponseInfo[] = []
  const sent: string[] = []
  const team = createTeamClient({
    baseUrl: sim.urls.base,
    apiKey: sim.credentials.teamApiKey,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    onResponse: (info) => seen.push(info),
    fetch: async (input, init) => {
      sent.push(`${init?.method} ${new URL(String(input)).pathname} ${init?.body ?? ''}`)
      return fetch(input, init)
    },
  })
  return { team, seen, sent }
}

describe('team.raw', () => {
  test('GET: the whole envelope, typed, every digit of the 19-digit ids kept', async () => {
    const { team } = client()
    const { data, response } = await team.raw.GET('/api/team/members')
    expect(response.status).toBe(200)
    expect(data?.success).toBe(true)
    const ids = (data?.data ?? []).map((m) => m.id)
    expect(ids).toContain('1673603133161799680')
    expect(typeof ids[0]).toBe('string')
  })

  test('the team key is sent, whatever Authorization the call gives', async () => {
    const { team } = client()
    const { data } = await team.raw.GET('/api/team/members', { headers: { Authorization: 'Bearer wrong' } })
    expect(data?.success).toBe(true)
  })

  test('path parameters and a body; the onResponse hook is told', async () => {
    const { team, seen } = client()
    const { data } = await team.raw.POST('/api/team/members/{userId}/impersonation', {
      params: { path: { userId: '1673603133161799680' } },
      body: { expiryHours: 1 },
    })
    expect(data?.data?.loginUrl).toMatch(/^https?:\/\//)
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/team/members/1673603133161799680/impersonation',
    })
  })

  test('a refusal throws the typed error, as a wrapped call does', async () => {
    const { team } = client()
    const refused = await team.raw
      .POST('/api/team/members/create', { body: { email: 'someone@gmail.com' } })
      .catch((e: unknown) => e)
    expect(ServicePermissionError.isInstance(refused)).toBe(true)
    expect((refused as ServicePermissionError).reason).toBe('domain-not-whitelisted')
  })

  test('a GET is retried after a 503; a POST is not (the service may have acted on it)', async () => {
    const { team, seen, sent } = client()
    sim.control.faults.inject({
      match: { target: 'team', method: 'GET' },
      action: { type: 'status', status: 503 },
    })
    await team.raw.GET('/api/team/members')
    expect(seen.at(-1)?.attempt).toBe(2)

    sim.control.faults.inject({
      match: { target: 'team', method: 'POST' },
      action: { type: 'status', status: 503 },
    })
    const before = sent.length
    const failed = await team.raw
      .POST('/api/team/members/invite', { body: { email: 'linus@acme.com' } })
      .catch((e: unknown) => e)
    expect(ServiceServerError.isInstance(failed)).toBe(true)
    expect(sent.length - before).toBe(1)
  })

  test('`idempotent: true` lets a POST be retried; `timeoutMs` bounds one attempt', async () => {
    const { team, seen } = client()
    sim.control.faults.inject({
      match: { target: 'team', method: 'POST' },
      action: { type: 'status', status: 503 },
    })
    await team.raw.POST('/api/team/members/{userId}/impersonation', {
      params: { path: { userId: '1673603133161799680' } },
      body: {},
      idempotent: true,
    })
    expect(seen.at(-1)?.attempt).toBe(2)

    sim.control.faults.inject({
      match: { target: 'team', method: 'GET' },
      action: { type: 'latency', ms: 2_000 },
      times: Infinity,
    })
    const slow = await team.raw.GET('/api/team/members', { timeoutMs: 50 }).catch((e: unknown) => e)
    expect(ServiceTimeoutError.isInstance(slow)).toBe(true)
  })
})
