/**
 * Fault injection, bounded and per test: each rule fires at most `times` times (default once),
 * optionally after letting `skip` matching requests through, optionally with a probability
 * drawn from a seeded generator so a run can be replayed.
 */

/** Which part of the service a request is for. */
export type FaultTarget = 'team' | 'open' | 'oss' | 'app'

export interface FaultMatch {
  target?: FaultTarget | FaultTarget[]
  method?: string
  /** Matches the path (and query string): a substring, or a regular expression. */
  path?: string | RegExp
  /** OSS operation, e.g. `UploadPart`. */
  op?: string
  /** OSS multipart part number. */
  partNumber?: number
}

export type FaultAction =
  /** Answer with this HTTP status in the area's own error format (team envelope, open envelope, OSS XML). */
  | { type: 'status'; status: number; retryAfterSeconds?: number; ossCode?: string }
  /** Open area: a 200 envelope carrying this failure code (e.g. MS100003 busy). */
  | { type: 'open-code'; code: string; message?: string }
  /** Destroy the connection without an answer (servers started with `startSimulator` only). */
  | { type: 'reset' }
  /** Wait, then handle the request normally. */
  | { type: 'latency'; ms: number }
  /** OSS: expire the STS credential the request is signed with, then handle it (it fails as real OSS would). */
  | { type: 'expire-credentials' }
  /**
   * OSS PutObject / UploadPart: store the body with one byte inverted, at `offset` (default: a
   * position drawn from the seeded generator). The answer is a success whose ETag is the MD5 of
   * the bytes sent and whose `x-oss-hash-crc64ecma` is the CRC of the bytes stored: only an
   * end-to-end CRC check catches it. A body shorter than the offset is stored intact.
   */
  | { type: 'corrupt'; offset?: number }

export interface FaultRule {
  match?: FaultMatch
  action: FaultAction
  /**
   * `before` (default): instead of handling the request. `after`: the request is handled (a
   * member is created, an asset saved), then the answer is replaced: the client cannot tell.
   */
  when?: 'before' | 'after'
  /** How many times the rule fires. Default 1; `Infinity` for every match. */
  times?: number
  /** Let this many matching requests through first. Default 0. */
  skip?: number
  /** Fire on a matching request with this probability (seeded). Default 1. */
  probability?: number
}

export interface FaultHandle {
  /** How many times the rule has fired. */
  readonly hits: number
  remove(): void
}

export interface FaultRequest {
  target: FaultTarget
  method: string
  /** Path and query string. */
  path: string
  op?: string
  partNumber?: number
}

export interface Faults {
  inject(rule: FaultRule): FaultHandle
  /** Remove every rule. */
  clear(): void
  /** The action to apply to this request at this stage, if a rule fires. */
  take(request: FaultRequest, stage: 'reset' | 'before' | 'after'): FaultAction | undefined
  /** A number in [0, 1) from the seeded generator (faults that pick a position replay with the seed). */
  random(): number
}

/** A small seeded PRNG (mulberry32): replayable probabilities. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Entry {
  rule: FaultRule
  seen: number
  hits: number
}

function matches(m: FaultMatch | undefined, r: FaultRequest): boolean {
  if (!m) return true
  if (m.target && !(Array.isArray(m.target) ? m.target : [m.target]).includes(r.target)) return false
  if (m.method && m.method.toUpperCase() !== r.method.toUpperCase()) return false
  if (m.path !== undefined && !(typeof m.path === 'string' ? r.path.includes(m.path) : m.path.test(r.path)))
    return false
  if (m.op && m.op !== r.op) return false
  if (m.partNumber !== undefined && m.partNumber !== r.partNumber) return false
  return true
}

function stageOf(rule: FaultRule): 'reset' | 'before' | 'after' {
  if (rule.action.type === 'reset' && rule.when !== 'after') return 'reset'
  return rule.when ?? 'before'
}

export function createFaults(seed = 1): Faults {
  const random = seededRandom(seed)
  let entries: Entry[] = []
  return {
    inject(rule) {
      const entry: Entry = { rule, seen: 0, hits: 0 }
      entries.push(entry)
      return {
        get hits() {
          return entry.hits
        },
        remove() {
          entries = entries.filter((e) => e !== entry)
        },
      }
    },
    clear() {
      entries = []
    },
    take(request, stage) {
      for (const entry of entries) {
        const { rule } = entry
        if (stageOf(rule) !== stage || !matches(rule.match, request)) continue
        if (entry.hits >= (rule.times ?? 1)) continue
        entry.seen++
        if (entry.seen <= (rule.skip ?? 0)) continue
        if (rule.probability !== undefined && random() >= rule.probability) continue
        entry.hits++
        return rule.action
      }
      return undefined
    },
    random,
  }
}

/** Which area a request on the main port is for. */
export function targetOf(path: string): FaultTarget {
  if (path.startsWith('/api/team')) return 'team'
  if (path.startsWith('/open-api') || path.startsWith('/api/service')) return 'open'
  return 'app'
}
