import type { MovableClock } from '../model/clock.ts'
import type { Quirks, SimContext } from '../model/context.ts'
import type { Seed } from '../model/seed.ts'
import { createState, type StateData } from '../model/state.ts'
import type { WebhookSender } from '../webhooks/sender/sender.ts'

export interface ResetDeps {
  sim: SimContext
  sender: WebhookSender
  /** The seed the simulator started from: `reset()` without a seed goes back to it. */
  seed: Seed
  /** The quirks it started with. */
  quirks: Quirks
  /** The service's clock: back to the base clock on reset. */
  clock: MovableClock
}

/**
 * `control.reset(seed?)`: state, subscriptions, deliveries, faults and quirks back to a seed, in
 * place (clients and handles keep working). Credentials the seed leaves out keep the values the
 * simulator started with, so clients created once stay valid across resets.
 */
export function createReset(deps: ResetDeps): (seed?: Seed) => void {
  const { sim, sender } = deps
  const first = structuredClone(sim.state.data)
  const quirks = { ...deps.quirks }
  return (seed = deps.seed) => {
    deps.clock.reset()
    const fresh = createState(withCredentials(seed, first), { now: sim.now() }).data
    Object.assign(sim.state.data, fresh)
    sim.state.commit()
    sim.faults.clear()
    for (const key of Object.keys(sim.quirks)) delete (sim.quirks as Partial<Quirks>)[key as keyof Quirks]
    Object.assign(sim.quirks, quirks)
    sender.reset()
  }
}

function withCredentials(seed: Seed, first: StateData): Seed {
  const teams = seed.teams.map((team) => {
    const apiKey = team.apiKey ?? first.teams.find((t) => t.id === team.id)?.apiKey
    return apiKey === undefined ? team : { ...team, apiKey }
  })
  const apiKey = seed.caller.apiKey ?? first.apiKeys[0]?.key
  const token = seed.caller.openToken ?? first.openTokens[0]
  const caller = {
    ...seed.caller,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(token === undefined ? {} : { openToken: { type: token.type, value: token.value } }),
  }
  return { ...seed, teams, caller }
}
