// The in-process simulator through the public entry: its origins, what it answers on each, what
// it refuses, and a reset fault in process. The SDK's clients through MSW: examples/msw-node;
// a browser through Playwright routes: packages/react/test/routed-browser.test.ts.
import { rejectionOf } from '@service-sdk/testkit'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createInProcessSimulator,
  createSimulatorApp,
  DEFAULT_DOMAIN,
  defaultSeed,
  SimError,
} from '../src/index.ts'

const sim = createInProcessSimulator()
afterAll(() => sim.close())

const open = (path: string, body: unknown = {}) =>
  sim.fetch(`${sim.urls.open}/open-api/standard/call/service/${path}`, {
    method: 'POST',
    headers: {
      authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  })

describe('createInProcessSimulator', () => {
  it('has https origins of its own under service-sim.test, and the credentials startSimulator gives', async () => {
    expect(DEFAULT_DOMAIN).toBe('service-sim.test')
    expect(sim.urls).toEqual({
      base: 'https://api.service-sim.test',
      open: 'https://open.service-sim.test',
      app: 'https://app.service-sim.test',
      oss: 'https://oss.service-sim.test',
    })
    const data = sim.control.snapshot()
    expect(sim.credentials).toEqual({
      teamApiKey: data.teams.find((t) => t.id === data.apiKeys[0]?.teamId)?.apiKey,
      openToken: { type: data.openTokens[0]?.type, value: data.openTokens[0]?.value },
      apiKey: data.apiKeys[0]?.key,
    })
  })

  it('answers the team API, the open API and the selector page on their origins', async () => {
    const members = await sim.fetch(`${sim.urls.base}/api/team/members`, {
      headers: { authorization: `Bearer ${sim.credentials.teamApiKey}` },
    })
    expect(members.status).toBe(200)
    expect(((await members.json()) as { success: boolean }).success).toBe(true)
    expect(((await (await open('org-info')).json()) as { code: unknown }).code).toBe('0')
    const page = await sim.fetch(`${sim.urls.app}/outer/outerChoice?type=content&file=empty`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script src="assets/selector.js"')
  })

  it('sts-tmp hands out the storage as a bare host, as the live service does; the storage answers there and on bucket hosts', async () => {
    const { result } = (await (await open('sts-tmp')).json()) as {
      result: { endPoint: string; bucket: string }
    }
    expect(result.endPoint).toBe('oss.service-sim.test')
    for (const origin of [sim.urls.oss, `https://${result.bucket}.oss.service-sim.test`]) {
      const answer = await sim.fetch(`${origin}/some-key`)
      // Unsigned: the storage's own refusal (OSS XML with a request id), not the service's JSON.
      expect(answer.status, origin).toBe(403)
      expect(answer.headers.get('x-oss-request-id'), origin).toMatch(/^[0-9A-F]{24}$/)
      expect(await answer.text(), origin).toContain('<Code>AccessDenied</Code>')
    }
  })

  it('routes by origin: anything else (another host, http, a port, a deeper host) is not its own', async () => {
    for (const url of [
      'https://example.com/api/team/members',
      'http://api.service-sim.test/api/team/members',
      'https://api.service-sim.test:8443/api/team/members',
      'https://a.b.oss.service-sim.test/key',
      'https://api.service-sim.test.evil.example/',
      'not a url',
    ]) {
      expect(sim.handles(url), url).toBe(false)
      if (URL.canParse(url)) expect(sim.answer(new Request(url)), url).toBeUndefined()
    }
    expect(sim.handles(`${sim.urls.base}/anything`)).toBe(true)
    expect(sim.handles(new URL(`${sim.urls.oss}/key`))).toBe(true)
  })

  it('its fetch refuses another origin with a SimError naming it: nothing reaches the network', async () => {
    const error = await rejectionOf(sim.fetch('https://example.com/api/team/members'), 'it answered')
    expect(error).toBeInstanceOf(SimError)
    expect(error).toMatchObject({ kind: 'not_found' })
    expect((error as Error).message).toContain(
      'https://example.com is not an origin of the in-process simulator',
    )
  })

  it('takes another domain; refuses one that is not a lowercase host name of two labels or more', async () => {
    const other = createInProcessSimulator({ domain: 'sim.example.test' })
    try {
      expect(other.urls.open).toBe('https://open.sim.example.test')
      expect(other.handles(sim.urls.open)).toBe(false)
      expect((await other.fetch(`${other.urls.app}/outer/outerChoice?type=content`)).status).toBe(200)
    } finally {
      other.close()
    }
    for (const domain of ['localhost', 'Service-Sim.test', 'a..test', '-a.test', 'a.test/x', 5]) {
      const error = (() => {
        try {
          createInProcessSimulator({ domain: domain as string })
        } catch (e) {
          return e
        }
      })()
      expect(error, String(domain)).toBeInstanceOf(SimError)
      expect((error as Error).message).toContain('domain:')
    }
  })

  it('a seed whose caller is in no team: refused with bad_request, as startSimulator does', () => {
    expect(() => createInProcessSimulator({ seed: { ...defaultSeed(), teams: [] } })).toThrow(
      expect.objectContaining({
        kind: 'bad_request',
        message: expect.stringContaining('The seed defines no caller'),
      }),
    )
  })
})

describe('a reset fault in process', () => {
  it('after handling: fetch rejects as on a lost connection (not a 500), and the member was created', async () => {
    const app = createSimulatorApp({ logger: {} })
    const key = app.control.snapshot().teams[0]?.apiKey
    app.control.faults.inject({
      match: { path: '/members/create' },
      action: { type: 'reset' },
      when: 'after',
    })
    const error = await rejectionOf(
      app.fetch(
        new Request('https://api.service-sim.test/api/team/members/create', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'hedy@acme.com' }),
        }),
      ),
      'it answered',
    )
    app.close()
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).cause).toMatchObject({ code: 'ECONNRESET' })
    expect(app.control.snapshot().users.some((u) => u.email === 'hedy@acme.com')).toBe(true)
  })
})
