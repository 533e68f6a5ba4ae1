import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { CliError } from './errors.ts'

/** What the commands need to reach the service; every key has a `SERVICE_*` variable. */
export const SETTINGS = {
  baseUrl: { env: 'SERVICE_BASE_URL', secret: false, what: '{base_url}: the team API' },
  openUrl: { env: 'SERVICE_OPEN_URL', secret: false, what: '{open_url}: the open API' },
  appUrl: { env: 'SERVICE_APP_URL', secret: false, what: '{app_url}: the folder selector' },
  teamApiKey: { env: 'SERVICE_TEAM_API_KEY', secret: true, what: 'the team API key (members)' },
  openTokenType: {
    env: 'SERVICE_OPEN_TOKEN_TYPE',
    secret: false,
    what: 'the open token type (default Bearer)',
  },
  openToken: { env: 'SERVICE_OPEN_TOKEN', secret: true, what: 'the open API token (spaces, upload)' },
  apiKey: { env: 'SERVICE_API_KEY', secret: true, what: 'the subscription API key (subscribe, listen)' },
} as const

export type SettingName = keyof typeof SETTINGS
export type Source = 'flag' | 'env' | 'profile' | 'default'
export interface Setting {
  value: string
  source: Source
}

export interface Config {
  profile: string
  file: string
  settings: Partial<Record<SettingName, Setting>>
  /** The value, or a configuration error naming the variable and how to set it. */
  require(name: SettingName): string
  get(name: SettingName): string | undefined
}

interface ProfileFile {
  profiles: Record<string, Partial<Record<SettingName, string>>>
}

const xdg = (variable: string, fallback: string) => process.env[variable] || join(homedir(), fallback)
export const configDir = () => join(xdg('XDG_CONFIG_HOME', '.config'), 'service-sdk')
/** Upload journals, checkpoints, the listener's inbox and token. */
export const configFile = () => join(configDir(), 'config.json')
export const stateDir = () => join(xdg('XDG_STATE_HOME', '.local/state'), 'service-sdk')

export function readProfiles(file: string): ProfileFile {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return { profiles: {} }
  }
  try {
    const parsed = JSON.parse(text) as Partial<ProfileFile>
    return { profiles: parsed.profiles ?? {} }
  } catch {
    throw new CliError('config', `The profile file ${file} is not valid JSON`, 'Fix it or remove it')
  }
}

export function writeProfile(
  file: string,
  profile: string,
  values: Partial<Record<SettingName, string>>,
): void {
  const data = readProfiles(file)
  data.profiles[profile] = { ...data.profiles[profile], ...values }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(`${file}.tmp`, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
  chmodSync(file, 0o600)
}

/** Flags over `SERVICE_*` variables over the profile (`--profile`, `SERVICE_PROFILE`, or `default`). */
export function loadConfig(flags: { profile?: string; baseUrl?: string; openUrl?: string }): Config {
  const file = configFile()
  const profile = flags.profile ?? process.env.SERVICE_PROFILE ?? 'default'
  const profiles = readProfiles(file).profiles
  const stored = profiles[profile]
  if (flags.profile && !stored)
    throw new CliError(
      'config',
      `No profile named "${profile}" in ${file}`,
      `Create it: service-sdk config set baseUrl http://127.0.0.1:4010 --profile ${profile}`,
    )
  const settings: Config['settings'] = {}
  for (const [name, meta] of Object.entries(SETTINGS) as Array<
    [SettingName, (typeof SETTINGS)[SettingName]]
  >) {
    const flag = (flags as Record<string, string | undefined>)[name]
    const env = process.env[meta.env]
    const value = stored?.[name]
    if (flag) settings[name] = { value: flag, source: 'flag' }
    else if (env) settings[name] = { value: env, source: 'env' }
    else if (value) settings[name] = { value, source: 'profile' }
  }
  settings.openTokenType ??= { value: 'Bearer', source: 'default' }
  return {
    profile,
    file,
    settings,
    get: (name) => settings[name]?.value,
    require(name) {
      const value = settings[name]?.value
      if (value) return value
      const { env, what } = SETTINGS[name]
      throw new CliError(
        'config',
        `${env} is not set (${what})`,
        `Set it in the environment, or: service-sdk config set ${name} <value>; for a local simulator: service-sdk sim --save-profile`,
      )
    },
  }
}

/** A secret as `…wxyz (40 chars)`: enough to tell two apart, never enough to use. */
export function mask(value: string): string {
  if (value.length < 16) return `…(${value.length} chars)`
  return `…${value.slice(-4)} (${value.length} chars)`
}
