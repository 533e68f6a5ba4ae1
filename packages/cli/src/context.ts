import type { OpenClient } from '@service-sdk/open'
import type { TeamClient } from '@service-sdk/team'
import type { Command } from 'commander'
import { type Config, loadConfig } from './config.ts'
import { createOutput, type Output } from './output.ts'

export interface GlobalOptions {
  profile?: string
  baseUrl?: string
  openUrl?: string
  json?: boolean
}

/** What a command runs with: configuration, output, and clients made on demand. */
export interface Context {
  config: Config
  out: Output
  /** Clients are imported when a command needs one: `service-sdk --help` stays quick. */
  team(): Promise<TeamClient>
  open(options?: { needsApiKey?: boolean }): Promise<OpenClient>
}

export function contextOf(command: Command): Context {
  const flags = command.optsWithGlobals<GlobalOptions>()
  const out = createOutput(flags.json === true)
  let config: Config | undefined
  const cfg = () => {
    config ??= loadConfig(flags)
    return config
  }
  return {
    get config() {
      return cfg()
    },
    out,
    async team() {
      const baseUrl = cfg().require('baseUrl')
      const apiKey = cfg().require('teamApiKey')
      const { createTeamClient } = await import('@service-sdk/team')
      return createTeamClient({ baseUrl, apiKey })
    },
    async open(options = {}) {
      const c = cfg()
      const apiKey = options.needsApiKey ? c.require('apiKey') : c.get('apiKey')
      const openUrl = c.require('openUrl')
      const token = { type: c.require('openTokenType'), value: c.require('openToken') }
      const { createOpenClient } = await import('@service-sdk/open')
      return createOpenClient({
        openUrl,
        token,
        ...(apiKey ? { apiKey } : {}),
      })
    },
  }
}
