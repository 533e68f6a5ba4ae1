import type { EventTypeEntry, OrgSpace } from '@service-sdk/core'
import type { OpenClient } from '@service-sdk/open'
import { type Config, SETTINGS, type SettingName } from '../config.ts'
import { explain } from '../output.ts'
import { type Finding, fail, messageOf, notConfigured, ok } from './finding.ts'

// The key and token checks: one cheap call each, through the SDK's clients, so that what is
// refused here is what the other commands (and an application) would be refused.

/** A check reports, it does not wait out an outage: one retry, `timeoutMs` per attempt. */
const calls = (timeoutMs: number) => ({ retry: { maxRetries: 1 }, timeoutMs })

const missing = (config: Config, names: SettingName[]) =>
  names.filter((name) => !config.get(name)).map((name) => SETTINGS[name].env)

/** The setting a check sends and the URL it sends it to. */
interface Sent {
  key: SettingName
  url: SettingName
  /** The API that answered, for people: "the team API". */
  api: string
}

/** A failed call as a finding: refused key, unreachable URL, unusable setting, or the service's failure. */
export async function refusal(check: string, error: unknown, config: Config, sent: Sent): Promise<Finding> {
  const core = await import('@service-sdk/core')
  const key = SETTINGS[sent.key].env
  const url = SETTINGS[sent.url].env
  if (core.ServiceAuthenticationError.isInstance(error))
    return fail(
      check,
      `refused by ${sent.api}: ${messageOf(error)}`,
      `${key} is not accepted at ${config.get(sent.url)}: copy it again from the service (service-sdk config set ${sent.key} <value>), and check that ${url} is the service it belongs to`,
    )
  if (core.ServiceConnectionError.isInstance(error) || core.ServiceTimeoutError.isInstance(error))
    return fail(
      check,
      `${config.get(sent.url)} could not be reached: ${messageOf(error)}`,
      `Check ${url} (service-sdk config shows it) and the network; locally, start a simulator: service-sdk sim`,
    )
  if (core.ServiceValidationError.isInstance(error))
    return fail(
      check,
      `cannot be used: ${error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      `Fix ${url} or ${key}`,
    )
  const { message, hint } = await explain(error)
  return fail(
    check,
    `${sent.api} answered with a failure: ${message}`,
    hint ?? 'Run the check again; if it persists, the service is failing',
  )
}

export async function checkTeamKey(config: Config, timeoutMs: number): Promise<Finding> {
  const check = 'team-api-key'
  const absent = missing(config, ['baseUrl', 'teamApiKey'])
  if (absent.length > 0) return notConfigured(check, absent, 'the team API key')
  const sent: Sent = { key: 'teamApiKey', url: 'baseUrl', api: 'the team API' }
  try {
    const { createTeamClient } = await import('@service-sdk/team')
    const team = createTeamClient({
      baseUrl: config.require('baseUrl'),
      apiKey: config.require('teamApiKey'),
      ...calls(timeoutMs),
    })
    const members = await team.members.list()
    return ok(check, `accepted by the team API at ${config.get('baseUrl')} (${members.length} members)`)
  } catch (error) {
    return refusal(check, error, config, sent)
  }
}

/** The open token's check, and what later checks need from it. */
export interface OpenTokenCheck {
  finding: Finding
  /** The client, once the token is accepted. */
  open?: OpenClient
  orgs?: OrgSpace[]
}

export async function checkOpenToken(config: Config, timeoutMs: number): Promise<OpenTokenCheck> {
  const check = 'open-token'
  const absent = missing(config, ['openUrl', 'openToken'])
  if (absent.length > 0) return { finding: notConfigured(check, absent, 'the open API token') }
  const sent: Sent = { key: 'openToken', url: 'openUrl', api: 'the open API' }
  try {
    const { createOpenClient } = await import('@service-sdk/open')
    const open = createOpenClient({
      openUrl: config.require('openUrl'),
      token: { type: config.require('openTokenType'), value: config.require('openToken') },
      ...calls(timeoutMs),
    })
    const orgs = await open.orgs()
    const finding = ok(
      check,
      `accepted by the open API at ${config.get('openUrl')} (org-info: ${orgs.length} team spaces)`,
    )
    return { finding, open, orgs }
  } catch (error) {
    return { finding: await refusal(check, error, config, sent) }
  }
}

/** The subscription API key's check: the event-types call, whose answer the capability check reads. */
export interface ApiKeyCheck {
  finding: Finding
  types?: EventTypeEntry[]
  /** The call's failure, when the key was accepted and the call still refused (the capability). */
  refusal?: unknown
}

export async function checkApiKey(config: Config, timeoutMs: number): Promise<ApiKeyCheck> {
  const check = 'api-key'
  const absent = missing(config, ['openUrl', 'apiKey'])
  if (absent.length > 0) return { finding: notConfigured(check, absent, 'the subscription API key') }
  const sent: Sent = { key: 'apiKey', url: 'openUrl', api: 'the subscription API' }
  const accepted = `accepted by the subscription API at ${config.get('openUrl')}`
  try {
    const { createOpenClient } = await import('@service-sdk/open')
    const open = createOpenClient({
      openUrl: config.require('openUrl'),
      // The client needs a token; the event-types call sends only the API key, so a key
      // configured without a token is checked all the same.
      token: {
        type: config.require('openTokenType'),
        value: config.get('openToken') ?? 'not-sent',
      },
      apiKey: config.require('apiKey'),
      ...calls(timeoutMs),
    })
    const types = await open.events.types()
    return { finding: ok(check, `${accepted} (event-types answered)`), types }
  } catch (error) {
    const { ServicePermissionError } = await import('@service-sdk/core')
    // Authenticated, then refused for what the key's team may do: the key itself is fine.
    if (ServicePermissionError.isInstance(error))
      return { finding: ok(check, `${accepted} (event-types refused: see event-types)`), refusal: error }
    return { finding: await refusal(check, error, config, sent) }
  }
}
