import { SimError } from '../http/sim-error.ts'
import type { Quirks } from '../model/context.ts'

const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'HEAD'])

/**
 * Quirks as given at start (`quirks`) or over HTTP (`PUT /_sim/quirks`), checked where a wrong
 * value would otherwise be read as another one: the bucket's CORS rules, the event-types
 * capability switch, sts-tmp's `dir` and the asset event object's name. A bad value is a
 * `SimError` (`bad_request`) naming the quirk.
 */
export function checkQuirks(quirks: Partial<Quirks>): Partial<Quirks> {
  const { ossCors, eventTypesNeedCapability, stsDir, assetEventObject } = quirks
  if (stsDir !== undefined && stsDir !== 'user' && stsDir !== 'empty')
    throw new SimError('bad_request', "quirk stsDir: 'user' or 'empty'")
  if (assetEventObject !== undefined && (typeof assetEventObject !== 'string' || assetEventObject === ''))
    throw new SimError('bad_request', 'quirk assetEventObject: the name of a field, a non-empty string')
  if (eventTypesNeedCapability !== undefined && typeof eventTypesNeedCapability !== 'boolean')
    throw new SimError('bad_request', 'quirk eventTypesNeedCapability: true or false')
  if (ossCors === undefined || ossCors === 'open' || ossCors === 'none') return quirks
  if (!Array.isArray(ossCors))
    throw new SimError('bad_request', "quirk ossCors: 'open', 'none' or a list of CORS rules")
  ossCors.forEach((rule, i) => {
    const problem = ruleProblem(rule)
    if (problem) throw new SimError('bad_request', `quirk ossCors[${i}]: ${problem}`)
  })
  return quirks
}

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string')

function ruleProblem(rule: unknown): string | undefined {
  if (typeof rule !== 'object' || rule === null) return 'a rule is an object'
  const r = rule as Record<string, unknown>
  if (!strings(r.allowedOrigins) || r.allowedOrigins.length === 0)
    return 'allowedOrigins: a non-empty list of origins'
  if (!strings(r.allowedMethods) || !r.allowedMethods.every((m) => METHODS.has(m.toUpperCase())))
    return 'allowedMethods: a list of GET, PUT, POST, DELETE, HEAD'
  for (const name of ['allowedHeaders', 'exposeHeaders'])
    if (r[name] !== undefined && !strings(r[name])) return `${name}: a list of header names`
  const age = r.maxAgeSeconds
  if (age !== undefined && !(Number.isSafeInteger(age) && (age as number) >= 0))
    return 'maxAgeSeconds: a whole number of seconds'
  return undefined
}
