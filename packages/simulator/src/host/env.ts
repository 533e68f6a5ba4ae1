/** What a running simulator needs to say for the SDK's quick starts to run against it. */
export interface SimulatorEnvSource {
  urls: { base: string; open: string; app: string }
  credentials: { teamApiKey: string; openToken: { type: string; value: string }; apiKey: string }
}

/**
 * The `SERVICE_*` variables every README quick start reads, for this simulator:
 * `Object.assign(process.env, simulatorEnv(sim))`, or `service sim --env` in a shell.
 */
export function simulatorEnv(sim: SimulatorEnvSource): Record<string, string> {
  return {
    SERVICE_BASE_URL: sim.urls.base,
    SERVICE_OPEN_URL: sim.urls.open,
    SERVICE_APP_URL: sim.urls.app,
    SERVICE_TEAM_API_KEY: sim.credentials.teamApiKey,
    SERVICE_OPEN_TOKEN_TYPE: sim.credentials.openToken.type,
    SERVICE_OPEN_TOKEN: sim.credentials.openToken.value,
    SERVICE_API_KEY: sim.credentials.apiKey,
  }
}
