// The quirks a configuration check (`service-sdk doctor`) is tested against, through the running
// simulator: the bucket's CORS rules and the event-types query of a team without the asset-event
// capability, each switched at start, through `control.quirks` and over HTTP.
import { describe, expect, it } from 'vitest'
import { defaultSeed, startSimulator } from '../src/index.ts'
import { useSimulator } from '../src/vitest.ts'

const sim = useSimulator()
const ORIGIN = 'https://app.example.com'

const preflight = (ossUrl: string) =>
  fetch(`${ossUrl}/uploads/probe.txt`, {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    },
  })

const accessHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'))

const quirksOverHttp = (body: unknown) =>
  fetch(`${sim.urls.base}/_sim/quirks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const eventTypes = () =>
  fetch(`${sim.urls.open}/api/service/material-automation-event-types`, {
    headers: { authorization: `Bearer ${sim.credentials.apiKey}` },
  }).then((r) => r.json() as Promise<{ code: string; message: string }>)

describe('quirk ossCors', () => {
  it("by default ('open') a preflight from any page is allowed, ETag and the CRC exposed", async () => {
    const answer = await preflight(sim.urls.oss)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(answer.headers.get('access-control-expose-headers')).toBe(
      'ETag, x-oss-request-id, x-oss-hash-crc64ecma',
    )
  })

  it("'none' over HTTP: preflights are refused 403 AccessForbidden without any Access-Control-* header", async () => {
    expect((await quirksOverHttp({ ossCors: 'none' })).status).toBe(200)
    const answer = await preflight(sim.urls.oss)
    expect(answer.status).toBe(403)
    expect(await answer.text()).toContain('<Code>AccessForbidden</Code>')
    expect(accessHeaders(answer)).toEqual([])
    // Ordinary answers carry none either.
    const get = await fetch(`${sim.urls.oss}/uploads/x`, { headers: { origin: ORIGIN } })
    expect(accessHeaders(get)).toEqual([])
  })

  it('a rule without exposed headers, through control.quirks: allowed, nothing exposed', async () => {
    sim.control.quirks.ossCors = [
      {
        allowedOrigins: [ORIGIN],
        allowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
        allowedHeaders: ['*'],
      },
    ]
    const answer = await preflight(sim.urls.oss)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(answer.headers.get('access-control-expose-headers')).toBeNull()
  })

  it('reset() puts the open rule back', async () => {
    sim.control.quirks.ossCors = 'none'
    sim.control.reset()
    expect((await preflight(sim.urls.oss)).status).toBe(200)
  })

  it('a rule that cannot be read is refused, over HTTP (400) and at start (SimError)', async () => {
    const bad = await quirksOverHttp({ ossCors: [{ allowedOrigins: [ORIGIN], allowedMethods: ['PATCH'] }] })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: expect.stringMatching(/ossCors\[0\]: allowedMethods/) })
    await expect(startSimulator({ quirks: { ossCors: 'closed' as 'none' } })).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringMatching(/quirk ossCors/),
    })
  })

  it('at start (the quirks option)', async () => {
    const other = await startSimulator({ quirks: { ossCors: 'none' } })
    try {
      expect((await preflight(other.urls.oss)).status).toBe(403)
    } finally {
      await other.stop()
    }
  })
})

describe('quirk eventTypesNeedCapability', () => {
  // The subscription API key of a caller whose team (Initech) lacks the asset-event capability.
  const withoutCapability = () => {
    const seed = defaultSeed()
    return { ...seed, caller: { ...seed.caller, teamId: '1003' } }
  }

  it('off (default): the list is answered, with or without the capability', async () => {
    sim.control.reset(withoutCapability())
    expect((await eventTypes()).code).toBe('0')
  })

  it('on over HTTP: a key whose team lacks the capability is refused MB100002; with it, answered', async () => {
    expect((await quirksOverHttp({ eventTypesNeedCapability: true })).status).toBe(200)
    expect((await eventTypes()).code).toBe('0')
    sim.control.reset(withoutCapability())
    sim.control.quirks.eventTypesNeedCapability = true
    expect(await eventTypes()).toMatchObject({
      code: 'MB100002',
      message: expect.stringMatching(/capability/),
    })
    expect((await quirksOverHttp({ eventTypesNeedCapability: 'yes' })).status).toBe(400)
  })
})
