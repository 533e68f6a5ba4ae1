import { createRequire } from 'node:module'
import { rejectionOf } from '@service-sdk/testkit'
import { describe, expect, it } from 'vitest'
import {
  defaultSeed,
  FOLDERS,
  MEMBERS,
  SimError,
  SPACES,
  seedBuilder,
  setupSimulator,
  startSimulator,
} from '../src/index.ts'
import { useSimulator } from '../src/vitest.ts'

const sim = useSimulator({ webhooks: { retry: { initialDelayMs: 1 } } })

const team = (path: string, body?: unknown) =>
  fetch(`${sim.urls.base}/api/team${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${sim.credentials.teamApiKey}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
const subscribe = (callbackUrl: string) =>
  fetch(`${sim.urls.open}/api/service/material-automation-subscribe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.credentials.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl, eventTypes: ['MATERIAL_INBOUND_COMPLETED'], operation: 'ADD' }),
  })

const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }

/** Upload a small object and save it as an asset: MATERIAL_INBOUND_COMPLETED follows. */
async function saveAsset(): Promise<void> {
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/${path}`, {
      method: 'POST',
      headers: {
        authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
        'content-type': 'application/json',
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return ((await response.json()) as { result: Record<string, string> }).result
  }
  const c = await call('sts-tmp')
  const oss = new OSS({
    endpoint: c.endPoint,
    accessKeyId: c.accessKeyId,
    accessKeySecret: c.accessKeySecret,
    stsToken: c.securityToken,
    bucket: c.bucket,
  })
  await oss.put(`${c.dir}a.txt`, Buffer.from('hello'))
  await call('material-save', { materials: [{ key: `${c.dir}a.txt`, name: 'a', extension: 'txt', size: 5 }] })
}

describe('the simulator as a test fixture', () => {
  it('starts with the built-in world the constants name', async () => {
    const members = await (await team('/members')).json()
    expect(members.data.map((m: { email: string }) => m.email)).toContain(MEMBERS.grace.email)
    expect(sim.control.snapshot().folders.map((f) => f.id)).toContain(FOLDERS.acme.campaigns)
  })

  it('reset() forgets members, subscriptions, faults and quirks, and keeps the credentials', async () => {
    const before = sim.credentials
    expect((await team('/members/create', { email: 'hedy@acme.com' })).status).toBe(200)
    expect((await subscribe('https://hooks.example.com/a')).status).toBe(200)
    sim.control.faults.inject({
      match: { target: 'team' },
      action: { type: 'status', status: 503 },
      times: 5,
    })
    sim.control.quirks.successCode = '200'
    sim.reset()
    const state = sim.control.snapshot()
    expect(state.users.map((u) => u.email)).not.toContain('hedy@acme.com')
    expect(state.eventSubscriptions).toEqual([])
    expect(sim.control.quirks.successCode).toBe('0')
    expect((await team('/members')).status).toBe(200) // the fault is gone
    expect(sim.credentials).toEqual(before)
    expect(state.apiKeys[0]?.key).toBe(before.apiKey)
  })

  it('reset(seed) switches to a custom world for one test, with the same credentials', async () => {
    const seed = seedBuilder()
      .team({ id: '7', name: 'Tiny', whitelist: ['tiny.io'], folders: [{ id: '70', name: 'Inbox' }] })
      .user({ id: '42', email: 'me@tiny.io', teams: { '7': 'owner' } })
      .caller({ userId: '42', teamId: '7' })
      .build()
    sim.reset(seed)
    const state = sim.control.snapshot()
    expect(state.teams.map((t) => t.id)).toEqual(['7'])
    expect(state.memberships).toEqual([{ teamId: '7', userId: '42', roleId: 1 }])
    expect(state.apiKeys[0]?.key).toBe(sim.credentials.apiKey)
    const orgs = await fetch(`${sim.urls.open}/open-api/standard/call/service/org-info`, {
      method: 'POST',
      headers: { authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}` },
    })
    expect(await orgs.text()).toContain('"Tiny"')
  })

  it('is back to the built-in world in the next test', () => {
    expect(sim.control.snapshot().teams.map((t) => t.id)).toContain(SPACES.acme)
  })

  it('delivers webhooks to a function, with retries, when a route is given', async () => {
    const seen: number[] = []
    const remove = sim.control.webhooks.deliverTo(async (request) => {
      seen.push((await request.text()).includes('MATERIAL_INBOUND_COMPLETED') ? 1 : 0)
      return new Response(null, { status: seen.length === 1 ? 500 : 200 })
    }, 'http://receiver.test/')
    expect((await subscribe('http://receiver.test/hooks/t0ken')).status).toBe(200)
    await saveAsset()
    await sim.control.webhooks.idle()
    remove()
    const deliveries = sim.control.webhooks.deliveries()
    expect(deliveries.map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([['delivered', 2, 200]])
    expect(seen).toEqual([1, 1])
  })

  it('drops pending deliveries on reset', async () => {
    sim.control.webhooks.deliverTo(() => new Response(null, { status: 503 }))
    sim.control.webhooks.configure({ retry: { initialDelayMs: 60_000 } })
    await subscribe('http://receiver.test/hooks/x')
    await saveAsset()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sim.control.webhooks.deliveries()[0]?.state).toBe('pending')
    sim.reset()
    expect(sim.control.webhooks.deliveries()).toEqual([])
    await sim.control.webhooks.idle() // nothing left: resolves at once
  })
})

describe('seedBuilder', () => {
  it('refuses a world whose references do not resolve', () => {
    expect(() => seedBuilder().team({ id: '7', name: 'A' }).build()).toThrow(/caller/)
    expect(() =>
      seedBuilder()
        .user({ id: '1', email: 'a@b.c', teams: { '9': 'owner' } })
        .build(),
    ).toThrow(/unknown team 9/)
    expect(() => seedBuilder().team({ id: 'x7', name: 'A' }).build()).toThrow(/decimal/)
  })

  it("refuses with the simulator's own error, kind bad_request", () => {
    const refusal = (build: () => unknown) => {
      try {
        build()
      } catch (error) {
        return error
      }
      return 'built'
    }
    for (const error of [
      refusal(() => seedBuilder().team({ id: '7', name: 'A' }).build()),
      refusal(() => seedBuilder().team({ id: '7', name: 'A' }).team({ id: '7', name: 'B' }).build()),
      refusal(() => seedBuilder().user({ id: '1', email: 'a@b.c', teams: { '7': 'boss' as 'owner' } })),
    ]) {
      expect(error).toBeInstanceOf(SimError)
      expect(error).toMatchObject({ name: 'SimError', kind: 'bad_request' })
    }
  })
})

describe("misuse, refused with the simulator's own error", () => {
  it('reading a fixture before start(): bad_request saying what to await', () => {
    const error = (() => {
      try {
        return setupSimulator().urls
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SimError)
    expect(error).toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('await fixture.start()'),
    })
  })

  it('a seed whose caller is in no team: startSimulator rejects with bad_request', async () => {
    const error = await rejectionOf(
      startSimulator({ seed: { ...defaultSeed(), teams: [] } }),
      'it started',
      (started) => started.stop(),
    )
    expect(error).toBeInstanceOf(SimError)
    expect(error).toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('The seed defines no caller'),
    })
  })
})
