import { inspect } from 'node:util'
import {
  type Logger,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceServerError,
  ServiceValidationError,
} from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTeamClient, embedImpersonation, type TeamClientOptions, withResponse } from '../src/index.ts'

let sim: RunningSimulator
const logs: string[] = []
const logger: Logger = {
  debug: (m, f) => logs.push(`${m} ${JSON.stringify(f)}`),
  info: (m, f) => logs.push(`${m} ${JSON.stringify(f)}`),
  warn: (m, f) => logs.push(`${m} ${JSON.stringify(f)}`),
  error: (m, f) => logs.push(`${m} ${JSON.stringify(f)}`),
}
const errors: unknown[] = []

/** A client on the simulator whose requests are counted. */
function client(overrides: Partial<TeamClientOptions> = {}) {
  const sent: string[] = []
  const team = createTeamClient({
    baseUrl: sim.urls.base,
    apiKey: sim.credentials.teamApiKey,
    logger,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    fetch: (input, init) => {
      const request = new Request(input, init)
      sent.push(`${request.method} ${new URL(request.url).pathname}`)
      return fetch(request)
    },
    ...overrides,
  })
  return { team, sent }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e,
  )
  errors.push(error)
  return error
}

const ADA = '1673603133161799680'
const GRACE = '1673603133161799681'
const CONTRACTOR = '1673603133161799682'

beforeAll(async () => {
  sim = await startSimulator()
})
afterEach(() => sim.control.faults.clear())
afterAll(async () => {
  await sim.stop()
})

describe('members.list', () => {
  test('returns every member; 19-digit ids survive exactly', async () => {
    const { team } = client()
    const members = await team.members.list()
    expect(members.map((m) => m.id)).toEqual(expect.arrayContaining([ADA, GRACE, CONTRACTOR]))
    expect(members.find((m) => m.id === ADA)).toEqual({
      id: ADA,
      name: 'Ada Lovelace',
      email: 'ada@acme.com',
      createdAt: '2025-03-14T09:26:53Z',
    })
  })

  test('a wrong key is an authentication error that says to copy the key again', async () => {
    const { team } = client({ apiKey: 'team_sk_wrong_key_value' })
    const error = await failure(team.members.list())
    expect(ServiceAuthenticationError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', isRetryable: false })
    expect((error as Error).message).toMatch(
      /^Unauthorized: Invalid API key\. The service does not know this key: copy the API key again/,
    )
  })

  // A proxy between the client and the service can rewrite or drop the header the client sets.
  test.each([
    [
      'a header not of the form Bearer <key>',
      (headers: Headers) => headers.set('authorization', `Token ${sim.credentials.teamApiKey}`),
      /^Unauthorized: Invalid authorization format\. The Authorization header must be "Bearer <key>"/,
    ],
    [
      'no header at all',
      (headers: Headers) => headers.delete('authorization'),
      /^Unauthorized: API Key is required\. No key reached the service: pass the API key as apiKey/,
    ],
  ])('%s is an authentication error with its own hint', async (_name, rewrite, message) => {
    const { team } = client({
      fetch: (input, init) => {
        const headers = new Headers(init?.headers)
        rewrite(headers)
        return fetch(input, { ...init, headers })
      },
    })
    const error = await failure(team.members.list())
    expect(ServiceAuthenticationError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' })
    expect((error as Error).message).toMatch(message)
  })
})

describe('response metadata', () => {
  test('withResponse gives the plain result with the status; the client hook and the log line see each success', async () => {
    const seen: Array<{ status: number; path: string }> = []
    const { team } = client({ onResponse: ({ status, path }) => seen.push({ status, path }) })
    const plain = await team.members.list()
    const { data, response, responses } = await withResponse((call) => team.members.list(call))
    expect(data).toEqual(plain)
    expect(Array.isArray(data)).toBe(true)
    expect(response).toMatchObject({ status: 200, method: 'GET', path: '/api/team/members', attempt: 1 })
    expect(response?.headers.get('content-type')).toMatch(/application\/json/)
    expect(responses).toEqual([response])
    expect(seen).toEqual([
      { status: 200, path: '/api/team/members' },
      { status: 200, path: '/api/team/members' },
    ])
    expect(logs.filter((l) => l.startsWith('service request {')).at(-1)).toMatch(/"status":200/)
  })

  test('a hook that throws does not fail the call', async () => {
    const { team } = client()
    const { data } = await withResponse((call) =>
      team.members.list({
        ...call,
        onResponse: () => {
          throw new Error('hook bug')
        },
      }),
    )
    expect(data.length).toBeGreaterThan(0)
    expect(logs.at(-1)).toMatch(/^onResponse hook threw; the call itself succeeded .*hook bug/)
  })
})

describe('members.create and invite', () => {
  test('create adds a user on a whitelisted domain to the team', async () => {
    const { team } = client()
    const created = await team.members.create({ email: 'New.Person@acme.com', password: 'correct horse' })
    expect(created).toMatchObject({ email: 'new.person@acme.com', name: 'new.person', teamId: '1001' })
    expect(created.id).toMatch(/^\d{19}$/)
    expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false)
    expect((await team.members.list()).some((m) => m.id === created.id)).toBe(true)
  })

  test('a domain off the whitelist is a permission error naming the domain', async () => {
    const { team } = client()
    const error = await failure(team.members.create({ email: 'someone@gmail.com' }))
    expect(ServicePermissionError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ status: 403, reason: 'domain-not-whitelisted', domain: 'gmail.com' })
  })

  test('creating an existing user is a conflict that says to invite them', async () => {
    const { team } = client()
    const error = await failure(team.members.create({ email: 'linus@acme.com' }))
    expect(ServiceConflictError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe(
      'User already exists: linus@acme.com. A user with this email exists already: add them to the team with members.invite({ email }) instead.',
    )
  })

  test('invite adds a registered user once; a second invite conflicts; an unknown one is not found', async () => {
    const { team } = client()
    const invited = await team.members.invite({ email: 'margaret@acme.cn' })
    expect(invited).toMatchObject({ id: '1673603133161799684', teamId: '1001', email: 'margaret@acme.cn' })
    const again = await failure(team.members.invite({ email: 'margaret@acme.cn' }))
    expect(ServiceConflictError.isInstance(again)).toBe(true)
    expect((again as Error).message).toMatch(
      /already a member of this team\. The user is a member of this team already/,
    )
    const unknown = await failure(team.members.invite({ email: 'nobody@acme.com' }))
    expect(ServiceNotFoundError.isInstance(unknown)).toBe(true)
    expect((unknown as Error).message).toBe(
      'No registered account for nobody@acme.com. No account is registered with this email: create the member with members.create({ email }) instead.',
    )
    expect((unknown as Error).message).not.toContain('Check the id')
  })

  test('a create that failed after reaching the service is not sent again (no duplicate user)', async () => {
    const { team, sent } = client()
    const fault = sim.control.faults.inject({
      match: { target: 'team', path: '/members/create' },
      action: { type: 'status', status: 500 },
      when: 'after',
    })
    const error = await failure(team.members.create({ email: 'once@acme.com' }))
    expect(ServiceServerError.isInstance(error)).toBe(true)
    expect(fault.hits).toBe(1)
    expect(sent.filter((s) => s.endsWith('/create'))).toHaveLength(1)
    const members = await team.members.list()
    expect(members.filter((m) => m.email === 'once@acme.com')).toHaveLength(1)
  })

  test('a create whose connection was reset after processing is not sent again either', async () => {
    const { team, sent } = client()
    sim.control.faults.inject({
      match: { target: 'team', path: '/members/create' },
      action: { type: 'reset' },
      when: 'after',
    })
    const error = await failure(team.members.create({ email: 'reset@acme.com' }))
    expect(ServiceError.isInstance(error) && error.code).toBe('connection_error')
    expect(sent.filter((s) => s.endsWith('/create'))).toHaveLength(1)
    expect((await team.members.list()).filter((m) => m.email === 'reset@acme.com')).toHaveLength(1)
  })
})

describe('members.impersonate', () => {
  test('returns a login URL that signs the member in, with the documented defaults', async () => {
    const { team } = client()
    const result = await team.members.impersonate(GRACE)
    expect(result.loginUrl).toMatch(
      new RegExp(`^${sim.urls.base}/auth/impersonation-login\\?token=[^&]+&callbackUrl=%2F$`),
    )
    expect(result).toMatchObject({ expiryHours: 24, callbackUrl: '/' })
    const hours = (Date.parse(result.expiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)
    const page = await (await fetch(result.loginUrl)).text()
    expect(page).toContain('Signed in as Grace Hopper')
  })

  test("the login URL expires when its hours have passed (the simulator's clock moved): the login page refuses it", async () => {
    const { team } = client()
    const result = await team.members.impersonate(GRACE, { expiryHours: 2 })
    expect((await fetch(result.loginUrl)).status).toBe(200)
    await sim.control.clock.advance(2 * 3_600_000 + 1_000)
    const expired = await fetch(result.loginUrl)
    expect(expired.status).toBe(401)
    expect(await expired.text()).toContain('expired')
    sim.control.reset()
  })

  test('options are sent; a number id is accepted', async () => {
    const { team } = client()
    const result = await team.members
      .impersonate(Number(1001), { expiryHours: 2, callbackUrl: '/library?tab=recent' })
      .catch((e: unknown) => e)
    // 1001 is a team id, not a member: the service says so.
    expect(ServiceNotFoundError.isInstance(result)).toBe(true)
    const ok = await team.members.impersonate(GRACE, { expiryHours: 2, callbackUrl: '/library?tab=recent' })
    expect(ok).toMatchObject({ expiryHours: 2, callbackUrl: '/library?tab=recent' })
    expect(ok.loginUrl).toContain(`callbackUrl=${encodeURIComponent('/library?tab=recent')}`)
  })

  test('a member whose domain is not whitelisted is refused', async () => {
    const { team } = client()
    const error = await failure(team.members.impersonate(CONTRACTOR))
    expect(error).toMatchObject({ status: 403, reason: 'domain-not-whitelisted', domain: 'gmail.com' })
  })

  test('a user outside the team is not found', async () => {
    const { team } = client()
    const error = await failure(team.members.impersonate('1673603133161799683'))
    expect(ServiceNotFoundError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(
      /^Member not found in this team\. No member of this team has this user id: take the id from members\.list\(\)/,
    )
  })

  test('an allowed origin may be the callback', async () => {
    const { team } = client({ allowedCallbackOrigins: ['https://app.example.com'] })
    const result = await team.members.impersonate(GRACE, { callbackUrl: 'https://app.example.com/welcome' })
    expect(result.callbackUrl).toBe('https://app.example.com/welcome')
  })
})

describe('bad input is refused before anything is sent', () => {
  test.each([
    [
      'a malformed email',
      (t: ReturnType<typeof client>['team']) => t.members.create({ email: 'not-an-email' }),
    ],
    [
      'an email with a trailing dot domain',
      (t: ReturnType<typeof client>['team']) => t.members.invite({ email: 'a@b' }),
    ],
    ['userId 0', (t: ReturnType<typeof client>['team']) => t.members.impersonate(0)],
    ['userId -1', (t: ReturnType<typeof client>['team']) => t.members.impersonate(-1)],
    ['userId 1.5', (t: ReturnType<typeof client>['team']) => t.members.impersonate(1.5)],
    ['userId "abc"', (t: ReturnType<typeof client>['team']) => t.members.impersonate('abc')],
    [
      'an unsafe (already rounded) number id',
      (t: ReturnType<typeof client>['team']) => t.members.impersonate(2 ** 53 + 2),
    ],
    [
      'expiryHours 0',
      (t: ReturnType<typeof client>['team']) => t.members.impersonate(GRACE, { expiryHours: 0 }),
    ],
    [
      'expiryHours 10000',
      (t: ReturnType<typeof client>['team']) => t.members.impersonate(GRACE, { expiryHours: 10_000 }),
    ],
    [
      'an off-site callbackUrl',
      (t: ReturnType<typeof client>['team']) =>
        t.members.impersonate(GRACE, { callbackUrl: 'https://evil.example/' }),
    ],
    [
      'a protocol-relative callbackUrl',
      (t: ReturnType<typeof client>['team']) =>
        t.members.impersonate(GRACE, { callbackUrl: '//evil.example/x' }),
    ],
    [
      'a javascript: callbackUrl',
      (t: ReturnType<typeof client>['team']) =>
        t.members.impersonate(GRACE, { callbackUrl: 'javascript:alert(1)' }),
    ],
    [
      'a backslash callbackUrl',
      (t: ReturnType<typeof client>['team']) =>
        t.members.impersonate(GRACE, { callbackUrl: '/\\evil.example' }),
    ],
  ])('%s', async (_name, call) => {
    const { team, sent } = client()
    const error = await failure(call(team))
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(/Nothing was sent\.$/)
    expect(sent).toEqual([])
  })

  test('client options are checked at creation', () => {
    expect(() => createTeamClient({ baseUrl: 'localhost:4010', apiKey: 'k' })).toThrow(ServiceValidationError)
    expect(() => createTeamClient({ baseUrl: 'http://127.0.0.1', apiKey: '' })).toThrow(/apiKey: is required/)
    // A callback origin that is not a URL is a bad option too, not a TypeError from `new URL`.
    const error = (() => {
      try {
        createTeamClient({
          baseUrl: 'http://127.0.0.1',
          apiKey: 'k',
          allowedCallbackOrigins: ['app.example'],
        })
      } catch (caught) {
        return caught
      }
    })()
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({
      code: 'validation_error',
      issues: [{ path: 'allowedCallbackOrigins.0', message: 'must be an absolute URL' }],
    })
  })
})

describe('resilience', () => {
  test('with 10% 5xx and occasional connection resets injected, 200 list calls all succeed', async () => {
    const { team, sent } = client({ retry: { maxRetries: 6, initialDelayMs: 1, maxDelayMs: 4 } })
    const failures = sim.control.faults.inject({
      match: { target: 'team' },
      action: { type: 'status', status: 503 },
      probability: 0.1,
      times: Number.POSITIVE_INFINITY,
    })
    const resets = sim.control.faults.inject({
      match: { target: 'team' },
      action: { type: 'reset' },
      probability: 0.03,
      times: Number.POSITIVE_INFINITY,
    })
    for (let i = 0; i < 200; i++) expect((await team.members.list()).length).toBeGreaterThan(0)
    expect(failures.hits).toBeGreaterThan(5)
    expect(resets.hits).toBeGreaterThan(0)
    expect(sent.length).toBe(200 + failures.hits + resets.hits)
  })
})

describe('embedImpersonation', () => {
  test('a sandboxed iframe that cannot navigate the embedding page', () => {
    const iframe = embedImpersonation({
      loginUrl: 'https://svc.example/auth/impersonation-login?token=a"b&callbackUrl=%2F',
    })
    expect(iframe.sandbox.split(' ')).toEqual(
      expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-forms']),
    )
    expect(iframe.sandbox).not.toContain('allow-top-navigation')
    expect(iframe.referrerPolicy).toBe('no-referrer')
    expect(iframe.html).toContain(
      'src="https://svc.example/auth/impersonation-login?token=a&#34;b&#38;callbackUrl=%2F"',
    )
  })
})

describe('secrets', () => {
  test('no error or log line of this suite carries the API key or a login token', () => {
    expect(errors.length).toBeGreaterThan(10)
    const key = sim.credentials.teamApiKey
    const text = [...errors.map((e) => `${JSON.stringify(e)}\n${inspect(e, { depth: 8 })}`), ...logs].join(
      '\n',
    )
    expect(text).not.toContain(key)
    expect(text).not.toMatch(/impersonation-login\?token=(?!\[REDACTED\])/)
  })
})
