import { createOpenClient, type OpenClient } from '@service-sdk/open'
import { createTeamClient, type TeamClient } from '@service-sdk/team'
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
  team(): TeamClient
  open(options?: { needsApiKey?: boolean }): OpenClient
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
    team: () => createTeamClient({ baseUrl: cfg().require('baseUrl'), apiKey: cfg().require('teamApiKey') }),
    open(options = {}) {
      const c = cfg()
      const apiKey = options.needsApiKey ? c.require('apiKey') : c.get('apiKey')
      return createOpenClient({
        openUrl: c.require('openUrl'),
        token: { type: c.require('openTokenType'), value: c.require('openToken') },
        ...(apiKey ? { apiKey } : {}),
      })
    },
  }
}
