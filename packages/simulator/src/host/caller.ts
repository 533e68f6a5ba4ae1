import type { SimulatorControl } from '../control/control.ts'
import { SimError } from '../http/sim-error.ts'

/** The seed's caller, as the SDK's clients need it (the `SERVICE_*` credentials). */
export interface SimulatorCredentials {
  /** The team API key of the caller's team (`Authorization: Bearer`). */
  teamApiKey: string
  /** The open API token (`Authorization: <type> <value>`). */
  openToken: { type: string; value: string }
  /** The subscription API key of the caller. */
  apiKey: string
}

/** The credentials of the seed's caller; a `SimError` when the seed defines none. */
export function callerCredentials(control: SimulatorControl): SimulatorCredentials {
  const data = control.snapshot()
  const caller = data.apiKeys[0]
  const team = data.teams.find((t) => t.id === caller?.teamId) ?? data.teams[0]
  const token = data.openTokens[0]
  if (!caller || !team || !token)
    throw new SimError(
      'bad_request',
      'The seed defines no caller: a team, an API key and an open token are required',
    )
  return {
    teamApiKey: team.apiKey,
    openToken: { type: token.type, value: token.value },
    apiKey: caller.key,
  }
}
