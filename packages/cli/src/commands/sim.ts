import { readFileSync } from 'node:fs'
import type { Quirks, Seed } from '@service-sdk/simulator'
import { type Command, InvalidArgumentError } from 'commander'
import { configFile, type SettingName, writeProfile } from '../config.ts'
import { contextOf } from '../context.ts'
import { CliError } from '../errors.ts'
import { port } from '../flags.ts'
import { pc } from '../output.ts'

interface SimOptions {
  port: number
  ossPort: number
  host: string
  seed?: string
  state?: string
  env?: boolean
  credentials?: string
  teamApiKey?: string
  openToken?: string
  apiKey?: string
  saveProfile?: string | boolean
  quirks?: Partial<Quirks>
}

interface Credentials {
  teamApiKey?: string
  openToken?: string | { type?: string; value: string }
  apiKey?: string
}

export function simCommand(program: Command): void {
  program
    .command('sim')
    .description(
      'run the simulator of the whole service locally (team and open APIs, object storage, selector, webhooks)',
    )
    .option('--port <port>', 'port of the service (0: any free port)', port, 4010)
    .option('--oss-port <port>', 'port of the object storage (0: any free port)', port, 4011)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <file>', 'a seed JSON file: teams, users, spaces, folders (default: the built-in world)')
    .option('--state <dir>', 'keep state and uploaded objects in this directory across restarts')
    .option(
      '--env',
      'print `export SERVICE_...=` lines on stdout (credentials of this simulator and a webhook token, for eval or a file; nothing else), everything else on stderr',
    )
    .option(
      '--credentials <file>',
      'fixed credentials from a JSON file: { "teamApiKey", "openToken", "apiKey" }',
    )
    .option('--team-api-key <key>', 'a fixed team API key')
    .option('--open-token <token>', 'a fixed open token')
    .option('--api-key <key>', 'a fixed subscription API key')
    .option(
      '--quirks <json>',
      'live-service variations and bucket settings, as a JSON object (the simulator README lists them): \'{"ossCors":"none"}\'',
      quirksOf,
    )
    .option(
      '--save-profile [name]',
      'save the URLs and credentials as this profile (default: "default") for the other commands',
    )
    .addHelpText(
      'after',
      `
Examples:
  service-sdk sim                                   # :4010 and :4011, the built-in world
  service-sdk sim --save-profile                    # ... and point every other command at it
  service-sdk sim --env > .sim.env &                # then: . ./.sim.env && node quickstart.mjs
  service-sdk sim --port 0 --oss-port 0 --env --team-api-key team_sk_ci --open-token ot_ci --api-key sk_ci
  service-sdk sim --quirks '{"ossCors":"none"}'       # a bucket without CORS rules (service-sdk doctor --origin ... fails)
The built-in world (ids of spaces, folders and members) is described in @service-sdk/simulator's README.`,
    )
    .action(async (options: SimOptions, command: Command) => {
      const ctx = contextOf(command)
      const { defaultSeed, loadSeed, SimError, simulatorEnv, startSimulator } = await import(
        '@service-sdk/simulator'
      )
      const { generateWebhookToken } = await import('@service-sdk/webhooks')
      const seed = withCredentials(
        options.seed ? loadSeedFile(loadSeed, options.seed) : defaultSeed(),
        credentialsOf(options),
      )
      const sim = await startSimulator({
        port: options.port,
        ossPort: options.ossPort,
        host: options.host,
        seed,
        ...(options.state ? { stateDir: options.state } : {}),
        ...(options.quirks ? { quirks: options.quirks } : {}),
      }).catch((error: NodeJS.ErrnoException) => {
        if (error instanceof SimError)
          throw new CliError('usage', error.message, 'See the quirks table of the simulator README')
        if (error.code === 'EADDRINUSE')
          throw new CliError(
            'failed',
            `Port ${options.port} or ${options.ossPort} is in use`,
            'Choose others with --port and --oss-port (0: any free port)',
          )
        throw error
      })
      const env = simulatorEnv(sim)
      // Listening for the signals before the first line: a stop right after it stops the simulator.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve)
        process.once('SIGTERM', resolve)
      })
      if (options.saveProfile) {
        const profile = typeof options.saveProfile === 'string' ? options.saveProfile : 'default'
        writeProfile(configFile(), profile, profileOf(env))
      }
      if (options.env) process.stdout.write(envFile(env, generateWebhookToken()))
      else if (ctx.out.json)
        process.stdout.write(`${JSON.stringify({ urls: sim.urls, env: Object.keys(env) })}\n`)
      process.stderr.write(
        `${pc.green('The simulator is running')} at ${sim.urls.base} (storage ${sim.urls.oss}); local throwaway credentials.\n` +
          `${options.saveProfile ? 'Saved as a profile: the other commands use it.\n' : options.env ? 'WEBHOOK_TOKEN is deprecated (it goes in the next release): read SERVICE_WEBHOOK_TOKEN.\n' : `For the SDK's quick starts: ${pc.bold('service-sdk sim --env')}, or ${pc.bold('--save-profile')} for this CLI.\n`}` +
          'Ctrl-C stops it.\n',
      )
      await stopped
      await sim.stop()
    })
}

/** `--quirks`: a JSON object; the simulator checks the values it would otherwise misread. */
function quirksOf(value: string): Partial<Quirks> {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new InvalidArgumentError('a JSON object of quirks, e.g. \'{"ossCors":"none"}\'')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidArgumentError('a JSON object of quirks, e.g. \'{"ossCors":"none"}\'')
  return parsed as Partial<Quirks>
}

function loadSeedFile(loadSeed: (file: string) => Seed, file: string): Seed {
  try {
    return loadSeed(file)
  } catch (error) {
    throw new CliError(
      'usage',
      `Cannot read the seed ${file}: ${(error as Error).message}`,
      'A JSON file of the Seed shape (see the simulator README)',
    )
  }
}

function credentialsOf(options: SimOptions): Credentials {
  let fromFile: Credentials = {}
  if (options.credentials) {
    try {
      fromFile = JSON.parse(readFileSync(options.credentials, 'utf8')) as Credentials
    } catch (error) {
      throw new CliError(
        'usage',
        `Cannot read the credentials ${options.credentials}: ${(error as Error).message}`,
        'A JSON file: { "teamApiKey": "...", "openToken": "...", "apiKey": "..." }',
      )
    }
  }
  return {
    ...fromFile,
    ...(options.teamApiKey ? { teamApiKey: options.teamApiKey } : {}),
    ...(options.openToken ? { openToken: options.openToken } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  }
}

function withCredentials(seed: Seed, credentials: Credentials): Seed {
  const token =
    typeof credentials.openToken === 'string'
      ? { type: 'Bearer', value: credentials.openToken }
      : credentials.openToken
  return {
    ...seed,
    teams: seed.teams.map((t) =>
      t.id === seed.caller.teamId && credentials.teamApiKey ? { ...t, apiKey: credentials.teamApiKey } : t,
    ),
    caller: {
      ...seed.caller,
      ...(credentials.apiKey ? { apiKey: credentials.apiKey } : {}),
      ...(token ? { openToken: { type: token.type ?? 'Bearer', value: token.value } } : {}),
    },
  }
}

const PROFILE: Record<string, SettingName> = {
  SERVICE_BASE_URL: 'baseUrl',
  SERVICE_OPEN_URL: 'openUrl',
  SERVICE_APP_URL: 'appUrl',
  SERVICE_TEAM_API_KEY: 'teamApiKey',
  SERVICE_OPEN_TOKEN_TYPE: 'openTokenType',
  SERVICE_OPEN_TOKEN: 'openToken',
  SERVICE_API_KEY: 'apiKey',
}

function profileOf(env: Record<string, string>): Partial<Record<SettingName, string>> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [PROFILE[k], v]))
}

/**
 * The `export` lines of `--env`: the simulator's variables, and a fresh token for a webhook
 * receiver as SERVICE_WEBHOOK_TOKEN. WEBHOOK_TOKEN, its old name, carries the same token for one
 * more release (quick starts written for it keep running); a comment line says so.
 */
function envFile(env: Record<string, string>, webhookToken: string): string {
  const lines = Object.entries({ ...env, SERVICE_WEBHOOK_TOKEN: webhookToken }).map(
    ([k, v]) => `export ${k}=${shellQuote(v)}`,
  )
  lines.push(
    '# WEBHOOK_TOKEN is deprecated and goes in the next release: read SERVICE_WEBHOOK_TOKEN.',
    `export WEBHOOK_TOKEN=${shellQuote(webhookToken)}`,
  )
  return `${lines.join('\n')}\n`
}

const shellQuote = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`
