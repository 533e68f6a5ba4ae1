import { createRequire } from 'node:module'
import { parseServiceJson } from '@service-sdk/core'
import { describe, expect, it } from 'vitest'
import { useSimulator } from '../src/vitest.ts'

// The service's clock, moved by tests (control.clock and /_sim/clock): everything the service
// lets expire follows it, while requests are still signed against the real clock.

const sim = useSimulator({ webhooks: { retry: { initialDelayMs: 1 } } })
const DAY = 24 * 3_600_000

const open = async (path: string, body?: unknown) => {
  const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/${path}`, {
    method: 'POST',
    headers: {
      authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
      'content-type': 'application/json',
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return (parseServiceJson(await response.text()) as { result: Record<string, unknown> }).result
}
const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }
const ossOf = (c: Record<string, unknown>) =>
  new OSS({
    endpoint: c.endPoint,
    accessKeyId: c.accessKeyId,
    accessKeySecret: c.accessKeySecret,
    stsToken: c.securityToken,
    bucket: c.bucket,
  })

describe('the clock', () => {
  it('advances and sets over the control API and over HTTP; reset puts it back on the real clock', async () => {
    const start = sim.control.clock.now()
    expect(Math.abs(start - Date.now())).toBeLessThan(1_000)
    expect(await sim.control.clock.advance(DAY)).toBeGreaterThanOrEqual(start + DAY)
    const over = await (
      await fetch(`${sim.urls.base}/_sim/clock/advance`, {
        method: 'POST',
        body: JSON.stringify({ ms: DAY }),
      })
    ).json()
    expect(over.now).toBeGreaterThanOrEqual(start + 2 * DAY)
    const set = await (
      await fetch(`${sim.urls.base}/_sim/clock`, {
        method: 'PUT',
        body: JSON.stringify({ time: start + 10 * DAY }),
      })
    ).json()
    expect(Math.abs(set.now - (start + 10 * DAY))).toBeLessThan(1_000)
    expect((await (await fetch(`${sim.urls.base}/_sim/clock`)).json()).now).toBeGreaterThan(start + 9 * DAY)
    await expect(sim.control.clock.advance(-1)).rejects.toThrow(/0 or more/)
    sim.reset()
    expect(Math.abs(sim.control.clock.now() - Date.now())).toBeLessThan(1_000)
  })

  it('an STS credential expires with the clock; requests signed now are not refused as skewed', async () => {
    const credential = await open('sts-tmp')
    const oss = ossOf(credential)
    await oss.put(`${credential.dir}before.txt`, Buffer.from('ok'))
    await sim.control.clock.advance(2 * 3_600_000)
    await expect(oss.put(`${credential.dir}after.txt`, Buffer.from('no'))).rejects.toMatchObject({
      code: 'SecurityTokenExpired',
    })
    const fresh = await open('sts-tmp')
    await ossOf(fresh).put(`${fresh.dir}fresh.txt`, Buffer.from('ok'))
  })

  it('team spaces expire at their invalidTime: org-info says valid false', async () => {
    const before = (await open('org-info')).orgList as Array<{ id: string; valid: boolean }>
    expect(before.some((o) => o.valid)).toBe(true)
    await sim.control.clock.advance(400 * DAY)
    const after = (await open('org-info')).orgList as Array<{ valid: boolean; canWrite?: boolean }>
    expect(after.every((o) => o.valid === false)).toBe(true)
  })

  it('the selector page shows a team space expired once the clock passes its invalidTime', async () => {
    // How many of the caller's spaces the page marks expired (the seed has one already).
    const expired = async () => {
      const response = await fetch(`${sim.urls.app}/outer/outerChoice?type=content`)
      expect(response.status).toBe(200)
      return (await response.text()).split('this space has expired').length - 1
    }
    const before = await expired()
    await sim.control.clock.advance(400 * DAY)
    expect(await expired()).toBeGreaterThan(before)
  })

  it('an impersonation link expires with the clock: the login page refuses it', async () => {
    const members = parseServiceJson(
      await (
        await fetch(`${sim.urls.base}/api/team/members`, {
          headers: { authorization: `Bearer ${sim.credentials.teamApiKey}` },
        })
      ).text(),
    ) as { data: Array<{ id: bigint | string }> }
    const userId = String(members.data[0]?.id)
    const link = (await (
      await fetch(`${sim.urls.base}/api/team/members/${userId}/impersonation`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sim.credentials.teamApiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ expiryHours: 1 }),
      })
    ).json()) as { data: { loginUrl: string } }
    expect((await fetch(link.data.loginUrl)).status).toBe(200)
    await sim.control.clock.advance(61 * 60_000)
    expect((await fetch(link.data.loginUrl)).status).toBe(401)
  })

  it("an asset's validity counts down as days pass: one VALIDITY event per move, then Expired", async () => {
    const bodies: Array<{ eventType: string; payload: { materials: Array<Record<string, unknown>> } }> = []
    sim.control.webhooks.deliverTo(async (request) => {
      bodies.push(await request.json())
      return new Response(null, { status: 200 })
    }, 'http://receiver.test/')
    await fetch(`${sim.urls.open}/api/service/material-automation-subscribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.credentials.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        callbackUrl: 'http://receiver.test/hooks/t',
        eventTypes: ['MATERIAL_METADATA_UPDATED'],
        operation: 'ADD',
      }),
    })
    const c = await open('sts-tmp')
    await ossOf(c).put(`${c.dir}valid.txt`, Buffer.from('hello'))
    const saved = await open('material-save', {
      materials: [{ key: `${c.dir}valid.txt`, name: 'valid', extension: 'txt', size: 5 }],
    })
    const id = (saved.materials as Array<{ id: string }>)[0]?.id as string
    const now = sim.control.clock.now()
    sim.control.materials.updateMetadata(id, {
      changeType: 'VALIDITY',
      validityStatus: 1,
      daysToExpire: 10,
      startTime: now,
      endTime: now + 10 * DAY,
      isPermanent: false,
    })
    await sim.control.clock.advance(4 * DAY)
    await sim.control.clock.advance(3 * 3_600_000) // the same whole days left: no event
    await sim.control.clock.advance(6 * DAY)
    await sim.control.webhooks.idle()
    const validity = bodies
      .filter((b) => b.eventType === 'MATERIAL_METADATA_UPDATED')
      .map((b) => b.payload.materials[0])
      .map((m) => [m?.validityStatus, m?.validityStatusName, m?.daysToExpire])
    expect(validity).toEqual([
      [1, undefined, 10],
      [2, 'Expiring soon', 6],
      [3, 'Expired', 0],
    ])
  })
})
