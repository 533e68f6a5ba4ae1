import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import type { ServiceSettings } from './config.ts'

export interface EmbeddedSimulator {
  simulator: RunningSimulator
  settings: ServiceSettings
  /**
   * The folders of the caller's personal space and of its API key's team: the demo watches them
   * from the start, so that uploads made through the selector (flow 1) produce folder callbacks
   * too. The real service has no folder listing; there, DEMO_WATCH_FOLDER_IDS says which.
   */
  defaultWatchFolderIds: string[]
}

/** No service configured: the whole service runs in this process, on free ports of 127.0.0.1. */
export async function startEmbeddedSimulator(options: { port: number }): Promise<EmbeddedSimulator> {
  const simulator = await startSimulator({ port: options.port })
  const { urls, credentials } = simulator
  // The simulator's public control API: a read-only snapshot of its world.
  const world = simulator.control.snapshot()
  const caller = world.apiKeys.find((k) => k.key === credentials.apiKey)
  const spaces = new Set(caller ? [`u:${caller.userId}`, `t:${caller.teamId}`] : [])
  return {
    simulator,
    settings: {
      baseUrl: urls.base,
      openUrl: urls.open,
      appUrl: urls.app,
      teamApiKey: credentials.teamApiKey,
      openToken: credentials.openToken,
      apiKey: credentials.apiKey,
    },
    defaultWatchFolderIds: world.folders.filter((f) => spaces.has(f.space)).map((f) => f.id),
  }
}
