import { isAbsolute, join, resolve } from 'node:path'

/** The service's URLs and credentials: from the environment, or from the embedded simulator. */
export interface ServiceSettings {
  baseUrl: string
  openUrl: string
  appUrl: string
  teamApiKey: string
  openToken: { type: string; value: string }
  apiKey: string
}

export interface DemoConfig {
  /** `service`: every SERVICE_* variable was given; `simulator`: none was. */
  mode: 'simulator' | 'service'
  /** Only in service mode; the simulator's come from it at start. */
  service: ServiceSettings | undefined
  /** Where the service reaches this server (webhooks). Default in simulator mode: the listening address. */
  publicUrl: string | undefined
  port: number
  host: string
  /** Host names the page and its API answer to (DNS-rebinding guard); webhooks and health answer any. */
  allowedHosts: string[]
  dataDir: string
  /** The built page; default: @service-sdk/demo-web's dist. */
  webDir: string | undefined
  /** The docs served under /docs, built there on the first visit if needed; default: the repository's docs/site. */
  docsDir: string | undefined
  maxUploadBytes: number
  eventHistory: number
  /** Folders subscribed to content callbacks at start-up (besides those picked in the page). */
  watchFolderIds: string[]
  /** The embedded simulator's port (0: any free port). */
  simulatorPort: number
  /** How long shutdown waits for in-flight uploads before aborting them. */
  shutdownGraceMs: number
}

export interface ConfigIssue {
  variable: string
  message: string
}

/** Bad or missing configuration: every problem, each naming its variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  readonly issues: ConfigIssue[]
  constructor(issues: ConfigIssue[]) {
    super(
      `The demo's configuration is not usable:\n${issues.map((i) => `  - ${i.variable}: ${i.message}`).join('\n')}\n` +
        'See apps/demo-server/README.md (Configuration). With no SERVICE_* variable set, the demo runs on the built-in simulator.',
    )
    this.issues = issues
  }
}

/** The variables that point the demo at a real service; all of them, or none (simulator). */
export const SERVICE_VARIABLES = {
  SERVICE_BASE_URL: 'the service base URL ({base_url}, team API at /api/team)',
  SERVICE_OPEN_URL: 'the open API URL ({open_url})',
  SERVICE_APP_URL: 'the folder selector app URL ({app_url})',
  SERVICE_TEAM_API_KEY: 'the team API key (team management dashboard)',
  SERVICE_OPEN_TOKEN_TYPE: 'the open API token type (the first word of its Authorization header)',
  SERVICE_OPEN_TOKEN: 'the open API token',
  SERVICE_API_KEY: 'the API key of the subscription endpoints',
} as const

export const DEFAULT_PORT = 5173
export const DEFAULT_MAX_UPLOAD_BYTES = 1024 ** 3
const APP_DIR = resolve(import.meta.dirname, '..')

type Env = Record<string, string | undefined>

/** Reads variables, collecting every problem (each naming its variable) instead of stopping at the first. */
class EnvReader {
  readonly issues: ConfigIssue[] = []
  readonly #env: Env
  constructor(env: Env) {
    this.#env = env
  }

  value(name: string): string | undefined {
    const v = this.#env[name]?.trim()
    return v === undefined || v === '' ? undefined : v
  }

  url(name: string, what: string): string | undefined {
    const raw = this.value(name)
    if (raw === undefined) return undefined
    if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
      this.issues.push({ variable: name, message: `must be an http(s) URL (${what}); got something else` })
      return undefined
    }
    return raw.replace(/\/+$/, '')
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.value(name)
    if (raw === undefined) return fallback
    const n = Number(raw)
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
      this.issues.push({ variable: name, message: `must be an integer from ${min} to ${max}; got "${raw}"` })
      return fallback
    }
    return n
  }

  /** The comma-separated items of a variable, trimmed, empty ones skipped. */
  list(name: string): string[] {
    return (this.value(name) ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
  }

  dir(name: string): string | undefined {
    const raw = this.value(name)
    return raw === undefined ? undefined : isAbsolute(raw) ? raw : resolve(raw)
  }
}

/** Read and check the configuration; throws `ConfigError` naming every bad or missing variable. */
export function loadConfig(env: Env = process.env): DemoConfig {
  const read = new EnvReader(env)
  const given = Object.keys(SERVICE_VARIABLES).filter((name) => read.value(name) !== undefined)
  const mode = given.length === 0 ? 'simulator' : 'service'
  const service = mode === 'service' ? serviceSettings(read, given) : undefined
  const publicUrl = read.url('DEMO_PUBLIC_URL', 'the public URL of this server')
  const host = read.value('HOST') ?? '127.0.0.1'
  const config: DemoConfig = {
    mode,
    service,
    publicUrl,
    port: read.integer('PORT', DEFAULT_PORT, 0, 65535),
    host,
    allowedHosts: allowedHosts(read, host),
    dataDir: read.dir('DEMO_DATA_DIR') ?? join(APP_DIR, '.demo-data'),
    webDir: read.dir('DEMO_WEB_DIR'),
    docsDir: read.dir('DEMO_DOCS_DIR'),
    maxUploadBytes: read.integer(
      'DEMO_MAX_UPLOAD_BYTES',
      DEFAULT_MAX_UPLOAD_BYTES,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    eventHistory: read.integer('DEMO_EVENT_HISTORY', 200, 1, 10_000),
    watchFolderIds: watchFolderIds(read),
    simulatorPort: read.integer('DEMO_SIMULATOR_PORT', 0, 0, 65535),
    shutdownGraceMs: read.integer('DEMO_SHUTDOWN_GRACE_MS', 30_000, 0, 600_000),
  }
  if (read.issues.length > 0) throw new ConfigError(read.issues)
  return config
}

/** Service mode: every SERVICE_* variable, and DEMO_PUBLIC_URL (the service must reach this server). */
function serviceSettings(read: EnvReader, given: string[]): ServiceSettings | undefined {
  for (const [name, what] of Object.entries(SERVICE_VARIABLES)) {
    if (read.value(name) === undefined) {
      read.issues.push({
        variable: name,
        message: `is missing (${what}). ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set, so the demo talks to a real service and needs every SERVICE_* variable; unset them all to use the simulator.`,
      })
    }
  }
  const baseUrl = read.url('SERVICE_BASE_URL', SERVICE_VARIABLES.SERVICE_BASE_URL)
  const openUrl = read.url('SERVICE_OPEN_URL', SERVICE_VARIABLES.SERVICE_OPEN_URL)
  const appUrl = read.url('SERVICE_APP_URL', SERVICE_VARIABLES.SERVICE_APP_URL)
  const tokenType = read.value('SERVICE_OPEN_TOKEN_TYPE')
  if (tokenType !== undefined && /\s/.test(tokenType)) {
    read.issues.push({
      variable: 'SERVICE_OPEN_TOKEN_TYPE',
      message: 'must be one word (e.g. Bearer), without spaces',
    })
  }
  if (read.value('DEMO_PUBLIC_URL') === undefined) {
    read.issues.push({
      variable: 'DEMO_PUBLIC_URL',
      message:
        'is missing: the public http(s) URL at which the service can reach this server (for webhooks), e.g. a tunnel to it',
    })
  }
  const teamApiKey = read.value('SERVICE_TEAM_API_KEY')
  const token = read.value('SERVICE_OPEN_TOKEN')
  const apiKey = read.value('SERVICE_API_KEY')
  if (!(baseUrl && openUrl && appUrl && teamApiKey && tokenType && token && apiKey)) return undefined
  return { baseUrl, openUrl, appUrl, teamApiKey, openToken: { type: tokenType, value: token }, apiKey }
}

function watchFolderIds(read: EnvReader): string[] {
  const ids: string[] = []
  for (const id of read.list('DEMO_WATCH_FOLDER_IDS')) {
    if (/^[1-9]\d{0,18}$/.test(id)) ids.push(id)
    else
      read.issues.push({
        variable: 'DEMO_WATCH_FOLDER_IDS',
        message: `"${id}" is not a folder id (decimal digits)`,
      })
  }
  return ids
}

/** Local names, DEMO_ALLOWED_HOSTS, and the host it listens on when that is a name. */
function allowedHosts(read: EnvReader, host: string): string[] {
  const hosts = [
    'localhost',
    '127.0.0.1',
    '[::1]',
    ...read.list('DEMO_ALLOWED_HOSTS').map((h) => h.toLowerCase()),
  ]
  if (host !== '0.0.0.0' && host !== '::' && !hosts.includes(host)) hosts.push(host)
  return hosts
}
