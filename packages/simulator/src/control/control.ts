import { parseServiceJson } from '@service-sdk/core'
import { Hono } from 'hono'
import { json } from '../http/envelopes.ts'
import { SimError } from '../http/sim-error.ts'
import type { MovableClock, SimulatorClock } from '../model/clock.ts'
import type { MaterialChanges, Quirks, SimContext } from '../model/context.ts'
import type { Seed } from '../model/seed.ts'
import type { StateData } from '../model/state.ts'
import type { WebhookSender } from '../webhooks/sender/sender.ts'
import type { FaultRule, Faults } from './faults.ts'
import { checkQuirks } from './quirks.ts'

/** Drive the simulator from tests: faults, quirks, changes that emit events, and inspection. */
export interface SimulatorControl {
  faults: Pick<Faults, 'inject' | 'clear'>
  /** Mutable: switch live-service variations on and off. */
  quirks: Quirks
  /** Changes that emit callbacks and asset events (metadata, versions, delete, purge...). */
  materials: MaterialChanges
  webhooks: Pick<WebhookSender, 'deliveries' | 'configure' | 'idle' | 'deliverTo'>
  /** A read-only snapshot of the state (ids as decimal strings). */
  snapshot(): StateData
  /** Expire every STS credential issued so far (as if their lifetime had passed). */
  expireCredentials(): void
  /**
   * The service's time: `advance(ms)`, `set(time)` and `now()`. Moving it expires what it passes
   * (STS credentials, team spaces' `invalidTime`, impersonation links) and counts assets' validity
   * down (VALIDITY events); signature times stay on the real clock. `reset()` puts it back.
   */
  clock: SimulatorClock
  /**
   * Back to the seed (the one it started from, or `seed`): state, subscriptions, deliveries,
   * faults and quirks. Credentials the seed leaves out stay the same. Uploaded objects stay in the
   * object store (their keys are unique, nothing refers to them any more).
   */
  reset(seed?: Seed): void
}

export function createControl(
  sim: SimContext,
  sender: WebhookSender,
  materials: MaterialChanges,
  reset: (seed?: Seed) => void,
  clock: MovableClock,
): SimulatorControl {
  return {
    clock: { now: clock.now, advance: clock.advance, set: clock.set },
    faults: { inject: (rule) => sim.faults.inject(rule), clear: () => sim.faults.clear() },
    quirks: sim.quirks,
    materials,
    webhooks: {
      deliveries: () => sender.deliveries(),
      configure: (options) => sender.configure(options),
      idle: () => sender.idle(),
      deliverTo: (handler, prefix) => sender.deliverTo(handler, prefix),
    },
    reset,
    snapshot: () => structuredClone(sim.state.data),
    expireCredentials() {
      for (const credential of sim.state.data.sts)
        credential.expiresAt = Math.min(credential.expiresAt, sim.now() - 1)
      sim.state.commit()
    },
  }
}

type FaultRuleJson = Omit<FaultRule, 'match'> & {
  match?: Omit<NonNullable<FaultRule['match']>, 'path'> & { path?: string; pathRegex?: string }
}

/**
 * The same control over HTTP under /_sim, for users driving the simulator from curl or another
 * language. It is a local test tool: there is no authentication here.
 */
export function controlRoutes(control: SimulatorControl): Hono {
  const app = new Hono()
  app.onError((error) => {
    const status = error instanceof SimError ? (error.kind === 'not_found' ? 404 : 400) : 500
    return json({ error: error.message }, status)
  })
  app.get('/state', () => json(control.snapshot()))
  app.post('/faults', async (c) => {
    const rule = (await c.req.json()) as FaultRuleJson
    const { pathRegex, ...match } = rule.match ?? {}
    const handle = control.faults.inject({
      ...rule,
      ...(rule.match ? { match: { ...match, ...(pathRegex ? { path: new RegExp(pathRegex) } : {}) } } : {}),
    })
    return json({ injected: true, hits: handle.hits })
  })
  app.delete('/faults', () => {
    control.faults.clear()
    return json({ cleared: true })
  })
  app.put('/quirks', async (c) => {
    Object.assign(control.quirks, checkQuirks((await c.req.json()) as Partial<Quirks>))
    return json(control.quirks)
  })
  // GET /_sim/clock; POST /_sim/clock/advance {"ms": 86400000}; PUT /_sim/clock {"time": 1767225600000}
  app.get('/clock', () => json({ now: control.clock.now() }))
  app.post('/clock/advance', async (c) => {
    const { ms } = (await c.req.json()) as { ms?: unknown }
    return json({ now: await control.clock.advance(Number(ms)) })
  })
  app.put('/clock', async (c) => {
    const { time } = (await c.req.json()) as { time?: unknown }
    return json({ now: await control.clock.set(Number(time)) })
  })
  app.post('/credentials/expire', () => {
    control.expireCredentials()
    return json({ expired: true })
  })
  // POST /_sim/reset: back to the seed it started from; with a body, to that seed (a `Seed` as JSON).
  app.post('/reset', async (c) => {
    const text = await c.req.text()
    control.reset(text.trim() ? (JSON.parse(text) as Seed) : undefined)
    return json({ reset: true })
  })
  app.get('/webhooks/deliveries', () => json(control.webhooks.deliveries()))
  app.put('/webhooks', async (c) => {
    control.webhooks.configure(await c.req.json())
    return json({ configured: true })
  })
  // POST /_sim/materials/delete {"args": [["1900000000000000001"]]}: any MaterialChanges method.
  app.post('/materials/:change', async (c) => {
    const name = c.req.param('change') as keyof MaterialChanges
    const change = control.materials[name] as
      | ((...args: unknown[]) => string[] | Promise<string[]>)
      | undefined
    if (typeof change !== 'function') throw new SimError('not_found', `No change named ${name}`)
    // Lossless: a 19-digit id given as a JSON number arrives with every digit.
    const { args } = parseServiceJson(await c.req.text()) as { args?: unknown[] }
    return json({ eventIds: await change.apply(control.materials, args ?? []) })
  })
  return app
}
