import { describe, expect, test } from 'vitest'
import {
  ServiceApiError,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceInvalidRequestError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceResponseError,
  ServiceServerError,
} from '../errors/errors.ts'
import { createRedactor } from '../logging/redact.ts'
import { type EnvelopeContext, unwrapOpen, unwrapTeam } from './envelope.ts'
import type { RawResponse } from './request.ts'

const team: EnvelopeContext = {
  area: 'team',
  method: 'GET',
  path: '/api/team/members',
  redact: createRedactor(['sk_secret_value']),
}
const open: EnvelopeContext = { ...team, area: 'open', path: '/open-api/standard/call/service/org-info' }

function raw(status: number, body: unknown, headers: Record<string, string> = {}): RawResponse {
  return {
    status,
    headers: new Headers(headers),
    text: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

function caught(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('unwrapTeam', () => {
  test('returns data, with ids as exact strings', () => {
    const body =
      '{"success":true,"data":[{"id":1673603133161799680,"name":"Ada","email":"a@acme.com","createdAt":"2025-01-01T00:00:00Z"}]}'
    expect(unwrapTeam(raw(200, body), team)).toEqual([
      { id: '1673603133161799680', name: 'Ada', email: 'a@acme.com', createdAt: '2025-01-01T00:00:00Z' },
    ])
  })

  test.each([
    [400, ServiceInvalidRequestError, 'bad_request'],
    [401, ServiceAuthenticationError, 'unauthorized'],
    [404, ServiceNotFoundError, 'not_found'],
    [409, ServiceConflictError, 'conflict'],
    [429, ServiceRateLimitError, 'rate_limited'],
    [500, ServiceServerError, 'server_error'],
    [503, ServiceServerError, 'server_error'],
  ] as const)('HTTP %i maps to its class', (status, Class, code) => {
    const error = caught(() =>
      unwrapTeam(raw(status, { success: false, error: 'Unauthorized: API Key is required' }), team),
    )
    expect(Class.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ status, code, area: 'team', method: 'GET', path: '/api/team/members' })
    expect((error as Error).message).toContain('Unauthorized: API Key is required')
  })

  test('403 whitelist carries the domain and says what to do', () => {
    const error = caught(() =>
      unwrapTeam(
        raw(403, { success: false, error: "Email domain 'Gmail.com' is not in the team's whitelist" }),
        team,
      ),
    )
    expect(ServicePermissionError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ reason: 'domain-not-whitelisted', domain: 'gmail.com' })
    expect((error as Error).message).toMatch(/whitelist in the team dashboard/)
  })

  test('403 seat limit is told apart from the whitelist', () => {
    const error = caught(() => unwrapTeam(raw(403, { success: false, error: 'No seats available' }), team))
    expect(error).toMatchObject({ reason: 'seat-limit', domain: undefined })
  })

  test('Retry-After is read from a 429', () => {
    const error = caught(() =>
      unwrapTeam(raw(429, { success: false, error: 'slow' }, { 'retry-after': '2' }), team),
    )
    expect(error).toMatchObject({ retryAfterMs: 2000, isRetryable: true })
  })

  test('a proxy HTML page on a 502 is a server error, not a crash', () => {
    const error = caught(() => unwrapTeam(raw(502, '<html>Bad gateway</html>'), team))
    expect(ServiceServerError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ status: 502, body: '<html>Bad gateway</html>' })
  })

  test('a 200 that is not an envelope is a ServiceResponseError, not retried', () => {
    for (const body of ['<html>', { data: [] }, '']) {
      const error = caught(() => unwrapTeam(raw(200, body), team))
      expect(ServiceResponseError.isInstance(error)).toBe(true)
      expect(error).toMatchObject({ isRetryable: false })
    }
  })

  test('secrets echoed by the service are redacted from message and body', () => {
    const error = caught(() =>
      unwrapTeam(
        raw(401, { success: false, error: 'bad key sk_secret_value', apiKey: 'sk_secret_value' }),
        team,
      ),
    ) as ServiceApiError
    expect(JSON.stringify(error.toJSON())).not.toContain('sk_secret_value')
    expect(error.message).not.toContain('sk_secret_value')
  })
})

describe('unwrapOpen', () => {
  test.each(['0', 0, '200'])('success code %j returns result', (code) => {
    expect(unwrapOpen(raw(200, { code, message: 'ok', result: { orgList: [] } }), open)).toEqual({
      orgList: [],
    })
  })

  test.each([
    ['MB100001', ServiceInvalidRequestError, false],
    ['MB100002', ServicePermissionError, false],
    ['MB100003', ServiceNotFoundError, false],
    ['MB100004', ServiceInvalidRequestError, false],
    ['MS100001', ServiceServerError, true],
    ['MS100003', ServiceRateLimitError, true],
  ] as const)('code %s maps to its class (retryable %s)', (code, Class, retryable) => {
    const error = caught(() =>
      unwrapOpen(raw(200, { code, message: 'm', result: null, traceId: 't-1' }), open),
    )
    expect(Class.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code, traceId: 't-1', status: 200, isRetryable: retryable })
    expect((error as Error).message).toContain('(traceId t-1)')
  })

  test('an unknown failure code is a plain ServiceApiError carrying code, message and traceId', () => {
    const error = caught(() =>
      unwrapOpen(raw(200, { code: 'MB100005', message: 'business failure', traceId: 'x' }), open),
    )
    expect(error).toBeInstanceOf(ServiceApiError)
    expect(error).toMatchObject({
      name: 'ServiceApiError',
      code: 'MB100005',
      traceId: 'x',
      isRetryable: false,
    })
  })

  test('capability refusals are told apart', () => {
    const error = caught(() =>
      unwrapOpen(raw(200, { code: 'MB100002', message: 'subscription capability not enabled' }), open),
    )
    expect(error).toMatchObject({ reason: 'capability' })
  })

  test('HTTP failures map by status even with an envelope', () => {
    const error = caught(() => unwrapOpen(raw(401, { code: '401', message: 'Unauthorized' }), open))
    expect(ServiceAuthenticationError.isInstance(error)).toBe(true)
  })

  test('a bare list is accepted only where allowed', () => {
    const list = [{ code: 'MATERIAL_DELETED', desc: 'd', needsConfig: false, subscribed: true }]
    expect(unwrapOpen(raw(200, list), open, { allowBare: true })).toEqual(list)
    expect(ServiceResponseError.isInstance(caught(() => unwrapOpen(raw(200, list), open)))).toBe(true)
  })
})

describe('hints', () => {
  test("a call's own hint replaces the generic one, after the service's text without a doubled period", () => {
    const error = caught(() =>
      unwrapTeam(raw(409, { success: false, error: 'User already exists: a@acme.com.' }), {
        ...team,
        hints: { conflict: 'Invite them instead.' },
      }),
    )
    expect((error as Error).message).toBe('User already exists: a@acme.com. Invite them instead.')
  })

  test.each([
    ['Unauthorized: API Key is required', /No key reached the service/],
    ['Unauthorized: Invalid authorization format', /must be "Bearer <key>"/],
    ['Unauthorized: Invalid API key', /does not know this key/],
    ['Unauthorized', /Check the key or token the client was created with/],
  ])('401 %s gets its own advice', (text, advice) => {
    const error = caught(() => unwrapTeam(raw(401, { success: false, error: text }), team))
    expect(ServiceAuthenticationError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(advice)
  })

  test('open-area codes take the call hints too', () => {
    const error = caught(() =>
      unwrapOpen(
        raw(200, { code: 'MB100001', message: 'materials must be a non-empty list', traceId: 't1' }),
        {
          ...open,
          hints: { invalid: 'Switch the body form.' },
        },
      ),
    )
    expect((error as Error).message).toBe(
      'materials must be a non-empty list (traceId t1). Switch the body form.',
    )
  })
})
