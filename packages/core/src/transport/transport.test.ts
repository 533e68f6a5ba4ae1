import { inspect } from 'node:util'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import {
  ServiceConnectionError,
  ServiceError,
  ServiceResponseError,
  ServiceServerError,
  ServiceTimeoutError,
  ServiceValidationError,
} from '../errors/errors.ts'
import type { Logger } from '../logging/logger.ts'
import {
  createFakeFetch,
  jsonResponse,
  openFailure,
  openSuccess,
  teamFailure,
  teamSuccess,
} from '../testing/index.ts'
import { createOpenTransport, createSubscriptionTransport, createTeamTransport } from './areas.ts'
import type { Clock } from './context.ts'
import { operation } from './operation.ts'

const API_KEY = 'team_sk_0123456789abcdef'
const TOKEN = { type: 'Bearer', value: 'ot_fedcba9876543210' }
const instant: Clock = { now: () => 0, random: () => 0, sleep: async () => {} }

function recordingLogger() {
  const lines: string[] = []
  const write = (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(fields)}`)
  const logger: Logger = { debug: write, info: write, warn: write, error: write }
  return { logger, lines }
}

describe('team transport', () => {
  test('sends the bearer key and a user agent, and unwraps data losslessly', async () => {
    const fetch = createFakeFetch(() =>
      teamSuccess([
        { id: 1673603133161799680n, name: 'Ada', email: 'a@acme.com', createdAt: '2025-01-01T00:00:00Z' },
      ]),
    )
    const t = createTeamTransport({
      baseUrl: 'https://svc.example/',
      apiKey: API_KEY,
      fetch,
      userAgent: 'demo/1.0',
    })
    const data = await t.send({
      idempotent: true,
      operation: operation('GET', '/api/team/members'),
    })
    expect(data).toEqual([
      { id: '1673603133161799680', name: 'Ada', email: 'a@acme.com', createdAt: '2025-01-01T00:00:00Z' },
    ])
    const [request] = fetch.requests
    expect(request?.url).toBe('https://svc.example/api/team/members')
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request?.headers['user-agent']).toMatch(
      /^service-sdk-js\/\d+\.\d+\.\d+ \(team\) node\/24\.\d+\.\d+ demo\/1\.0$/,
    )
  })

  test('a 19-digit id in a request body keeps every digit', async () => {
    const fetch = createFakeFetch(() => openSuccess(true))
    const t = createSubscriptionTransport({ openUrl: 'https://svc.example', apiKey: API_KEY, fetch })
    await t.send({
      idempotent: true,
      operation: operation('POST', '/api/service/folder-subscribe'),
      body: { folderIds: ['1753946835010000001'], callbackUrl: 'https://h.example/cb' },
    })
    expect(fetch.requests[0]?.body).toBe(
      '{"folderIds":[1753946835010000001],"callbackUrl":"https://h.example/cb"}',
    )
    expect(fetch.requests[0]?.headers['content-type']).toBe('application/json')
  })

  test('an idempotent call survives transient failures; a create is not repeated after a 500', async () => {
    let calls = 0
    const flaky = createFakeFetch(() =>
      ++calls < 3 ? teamFailure(500, 'Internal server error') : teamSuccess([]),
    )
    const t = createTeamTransport({
      baseUrl: 'https://svc.example',
      apiKey: API_KEY,
      fetch: flaky,
      clock: instant,
    })
    await expect(
      t.send({
        idempotent: true,
        operation: operation('GET', '/api/team/members'),
      }),
    ).resolves.toEqual([])
    expect(flaky.requests).toHaveLength(3)

    const failing = createFakeFetch(() => teamFailure(500, 'Internal server error'))
    const t2 = createTeamTransport({
      baseUrl: 'https://svc.example',
      apiKey: API_KEY,
      fetch: failing,
      clock: instant,
    })
    const error = await t2
      .send({
        idempotent: false,
        operation: operation('POST', '/api/team/members/create'),
        body: { email: 'x@acme.com' },
      })
      .catch((e: unknown) => e)
    expect(ServiceServerError.isInstance(error)).toBe(true)
    expect(failing.requests).toHaveLength(1)
  })

  test('a network failure becomes a ServiceConnectionError', async () => {
    const fetch = createFakeFetch(() => new TypeError('fetch failed'))
    const t = createTeamTransport({ baseUrl: 'https://svc.example', apiKey: API_KEY, fetch, retry: false })
    const error = await t
      .send({
        idempotent: true,
        operation: operation('GET', '/api/team/members'),
      })
      .catch((e: unknown) => e)
    expect(ServiceConnectionError.isInstance(error)).toBe(true)
  })

  test('a hung server times out per attempt; a caller abort is the caller’s error', async () => {
    const hang = createFakeFetch(() => new Promise<Response>(() => {}))
    const t = createTeamTransport({
      baseUrl: 'https://svc.example',
      apiKey: API_KEY,
      fetch: hang,
      timeoutMs: 20,
      retry: { maxRetries: 1, initialDelayMs: 1 },
    })
    const send = (signal?: AbortSignal) =>
      t.send(
        {
          idempotent: true,
          operation: operation('GET', '/api/team/members'),
        },
        signal ? { signal, timeoutMs: 60_000 } : {},
      )
    const timeout = await send().catch((e: unknown) => e)
    expect(ServiceTimeoutError.isInstance(timeout)).toBe(true)
    expect(hang.requests).toHaveLength(2)

    const controller = new AbortController()
    const pending = send(controller.signal)
    setTimeout(() => controller.abort(new Error('user left')), 5)
    await expect(pending).rejects.toThrow('user left')
  })

  test('validateResponses: a response that does not match the schema is a ServiceResponseError', async () => {
    const fetch = createFakeFetch(() => teamSuccess([{ id: 1, email: 42 }]))
    const send = (validateResponses: boolean) => {
      const t = createTeamTransport({
        baseUrl: 'https://svc.example',
        apiKey: API_KEY,
        fetch,
        validateResponses,
      })
      return t.send({
        idempotent: true,
        schema: z.array(z.looseObject({ id: z.string(), email: z.string() })),
        operation: operation('GET', '/api/team/members'),
      })
    }
    await expect(send(false)).resolves.toEqual([{ id: '1', email: 42 }])
    const error = await send(true).catch((e: unknown) => e)
    expect(ServiceResponseError.isInstance(error)).toBe(true)
    expect((error as Error).message).toContain('0.email')
  })

  test('bad options are refused before anything is sent', () => {
    expect(() => createTeamTransport({ baseUrl: 'not a url', apiKey: '' })).toThrow(ServiceValidationError)
    expect(() => createTeamTransport({ baseUrl: 'ftp://x', apiKey: 'a b' })).toThrow(
      /baseUrl: must be an http\(s\) URL; apiKey: must not contain/,
    )
    expect(() =>
      createOpenTransport({ openUrl: 'https://x', token: { type: 'Bearer', value: 'v\r\nX-Evil: 1' } }),
    ).toThrow(ServiceValidationError)
  })
})

describe('open transport', () => {
  test('sends `<TOKEN_TYPE> <TOKEN>` and retries busy (MS100003) even for a create', async () => {
    let calls = 0
    const fetch = createFakeFetch(() =>
      ++calls === 1 ? openFailure('MS100003', 'busy') : openSuccess({ materials: [] }),
    )
    const t = createOpenTransport({ openUrl: 'https://open.example', token: TOKEN, fetch, clock: instant })
    const result = await t.send({
      idempotent: false,
      operation: operation('POST', '/open-api/standard/call/service/material-save'),
      body: { materials: [] },
    })
    expect(result).toEqual({ materials: [] })
    expect(fetch.requests).toHaveLength(2)
    expect(fetch.requests[0]?.headers.authorization).toBe('Bearer ot_fedcba9876543210')
  })
})

describe('secrets never leak', () => {
  test('errors (message, toJSON, inspect) and logs carry no key or token, even when the service echoes them', async () => {
    const { logger, lines } = recordingLogger()
    const echo = createFakeFetch((req) =>
      jsonResponse(
        { success: false, error: `Invalid key ${req.headers.authorization}`, token: TOKEN.value },
        { status: 401 },
      ),
    )
    const t = createTeamTransport({ baseUrl: 'https://svc.example', apiKey: API_KEY, fetch: echo, logger })
    const teamError = await t
      .send({
        idempotent: true,
        operation: operation('GET', '/api/team/members'),
      })
      .catch((e: unknown) => e)

    const openEcho = createFakeFetch((req) =>
      openFailure('MB100002', `denied for ${req.headers.authorization}`),
    )
    const o = createOpenTransport({ openUrl: 'https://open.example', token: TOKEN, fetch: openEcho, logger })
    const openError = await o
      .send({
        idempotent: true,
        operation: operation('POST', '/open-api/standard/call/service/sts-tmp'),
      })
      .catch((e: unknown) => e)

    for (const error of [teamError, openError]) {
      expect(ServiceError.isInstance(error)).toBe(true)
      const surfaces = [
        (error as Error).message,
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        String(error),
      ].join('\n')
      expect(surfaces).not.toContain(API_KEY)
      expect(surfaces).not.toContain(TOKEN.value)
    }
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(API_KEY)
    expect(lines.join('\n')).not.toContain(TOKEN.value)
  })

  test('the client object does not expose the key', () => {
    const t = createTeamTransport({ baseUrl: 'https://svc.example', apiKey: API_KEY })
    expect(inspect(t, { depth: 10 })).not.toContain(API_KEY)
  })
})
