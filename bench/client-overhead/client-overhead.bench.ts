/**
 * Client overhead: `team.members.list()` against the simulator vs a bare `fetch` + `JSON.parse` of
 * the same request, and the typed escape hatch `team.raw.GET('/api/team/members')` (openapi-fetch
 * through the SDK's transport), interleaved in one run. Target: SDK p50 / fetch p50 <= 1.05;
 * raw p50 / fetch p50 is reported beside it (openapi-fetch builds a `Request` per call and the
 * transport reads its body once more), and so is fetch with what a per-attempt timeout adds (an
 * AbortSignal, a timer set and cleared): the share of the SDK's overhead that is its timeout. The
 * simulator runs in its own process so the clients share nothing but the network. Two more
 * clients split the SDK's p50 over fetch by what adds it (printGap): fetch sending exactly the
 * request the SDK sends (captured from one call), with a timeout signal, parsed with JSON.parse,
 * and the same parsed losslessly. Each round runs the clients in a new random order: in a fixed
 * rotation each client always follows the same one and pays for its garbage (fetch followed
 * `raw`, the heaviest, which flattered the SDK's ratio by about 0.03). When the target is not met,
 * a CPU profile of PROFILE_CALLS more SDK calls prints where their time goes: the functions with
 * the most self time, and the share of the SDK's own code (the @service-sdk packages' files);
 * PROFILE=1 prints it in any case.
 * About 20 s with CALLS=3000. `CALLS=20` runs it once quickly (a check that it works, not a figure).
 */
import { parseServiceJson } from '@service-sdk/core'
import { createTeamClient } from '@service-sdk/team'
import { frameName, groupedSelfTime, profileWhile } from '../lib/cpu-profile.ts'
import { percentile, printTable, recordTarget } from '../lib/report.ts'
import { startSimulatorProcess } from '../lib/simulator-process.ts'

const CALLS = Number(process.env.CALLS ?? 3000)
const WARMUP = Math.min(300, CALLS)
const PROFILE_CALLS = Number(process.env.PROFILE_CALLS ?? 1000)
const TARGET = 1.05

type Name = 'sdk' | 'raw' | 'fetch' | 'timed' | 'request' | 'lossless'

console.log(`client-overhead bench: about 20 s (${CALLS} calls of each of 6 clients, interleaved)`)
const sim = await startSimulatorProcess()
try {
  const url = `${sim.urls.base}/api/team/members`
  const headers = { authorization: `Bearer ${sim.credentials.teamApiKey}` }
  const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
  const sent = await sdkRequest(sim.urls.base, sim.credentials.teamApiKey)
  /** The baseline: one fetch of the list and its parse (`JSON.parse` unless told otherwise). */
  const fetchList = async (
    target: string,
    init: RequestInit,
    parse: (text: string) => unknown = JSON.parse,
  ) => {
    const response = await fetch(target, init)
    const body = parse(await response.text()) as { data: unknown[] }
    if (!Array.isArray(body.data)) throw new Error('unexpected body')
  }
  /** `run` with what a per-attempt timeout adds: a signal, and a timer set and cleared. */
  const withTimeout = async (run: (signal: AbortSignal) => Promise<void>) => {
    const timer = new AbortController()
    const handle = setTimeout(() => timer.abort(), 30_000)
    try {
      await run(timer.signal)
    } finally {
      clearTimeout(handle)
    }
  }
  const runs: Record<Name, () => Promise<void>> = {
    fetch: () => fetchList(url, { headers }),
    async sdk() {
      await team.members.list()
    },
    // What a per-attempt timeout costs fetch alone.
    timed: () => withTimeout((signal) => fetchList(url, { headers, signal })),
    async raw() {
      const { data } = await team.raw.GET('/api/team/members')
      if (!Array.isArray(data?.data)) throw new Error('unexpected body')
    },
    // The SDK's request as it sends it (its method, headers and User-Agent, no body), then also
    // its lossless parse: with `timed` they split the SDK's p50 over fetch by what adds it.
    request: () => withTimeout((signal) => fetchList(sent.url, { ...sent.init, signal })),
    lossless: () => withTimeout((signal) => fetchList(sent.url, { ...sent.init, signal }, parseServiceJson)),
  }
  const names = Object.keys(runs) as Name[]

  for (let i = 0; i < WARMUP; i++) for (const name of names) await runs[name]()
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>
  for (let i = 0; i < CALLS; i++) {
    // A new order each round, so that no client always follows the same one and pays for its
    // garbage (a rotation keeps the cyclic order: each client would always follow the same one).
    for (const name of shuffled(names)) {
      const start = performance.now()
      await runs[name]()
      times[name].push(performance.now() - start)
    }
  }
  const p = (name: Name, q: number) => percentile(times[name], q)
  const ratio = (name: Name, q: number) => p(name, q) / p('fetch', q)
  printTable(`GET /api/team/members, ${CALLS} calls each, interleaved`, [
    ['', 'p50 ms', 'p99 ms', 'p50 / fetch'],
    [
      'SDK: team.members.list()',
      p('sdk', 50).toFixed(3),
      p('sdk', 99).toFixed(3),
      ratio('sdk', 50).toFixed(3),
    ],
    ['raw: team.raw.GET(...)', p('raw', 50).toFixed(3), p('raw', 99).toFixed(3), ratio('raw', 50).toFixed(3)],
    [
      'fetch + JSON.parse, with a timeout signal',
      p('timed', 50).toFixed(3),
      p('timed', 99).toFixed(3),
      ratio('timed', 50).toFixed(3),
    ],
    ['fetch + JSON.parse', p('fetch', 50).toFixed(3), p('fetch', 99).toFixed(3), '1.000'],
  ])
  printGap(p)
  const sdk = ratio('sdk', 50)
  console.log(
    `ratio p50 raw/fetch: ${ratio('raw', 50).toFixed(3)}; raw/SDK: ${(p('raw', 50) / p('sdk', 50)).toFixed(3)}`,
  )
  console.log(
    `ratio p99 SDK/fetch: ${ratio('sdk', 99).toFixed(3)}; raw/fetch: ${ratio('raw', 99).toFixed(3)}`,
  )
  const met = recordTarget({
    bench: 'client-overhead',
    measure: 'p50 team.members.list() ÷ fetch + JSON.parse',
    figure: `${sdk.toFixed(3)}x`,
    target: `<= ${TARGET}x`,
    met: sdk <= TARGET,
  })
  if (!met || process.env.PROFILE === '1') await whereTheTimeGoes(runs.sdk)
} finally {
  await sim.stop()
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** The `RequestInit` the SDK passes to fetch for `members.list()`, captured from one call. */
async function sdkRequest(baseUrl: string, apiKey: string): Promise<{ url: string; init: RequestInit }> {
  let captured: { url: string; init: RequestInit } | undefined
  const capture = createTeamClient({
    baseUrl,
    apiKey,
    fetch: (input, init = {}) => {
      const { signal: _signal, ...rest } = init
      captured = { url: String(input), init: rest }
      return fetch(input, init)
    },
  })
  await capture.members.list()
  if (!captured) throw new Error('the SDK sent no request')
  return captured
}

/**
 * The SDK's p50 over fetch, split by what adds each part (differences of interleaved p50s, so a
 * part can come out slightly negative): the per-attempt timeout, the request as the SDK sends it,
 * the lossless JSON parse (ids beyond 2^53 keep their digits), and the rest (the SDK's own layers:
 * envelope, retry loop, the call's objects).
 */
function printGap(p: (name: Name, q: number) => number): void {
  const us = (a: Name, b: Name) => (p(a, 50) - p(b, 50)) * 1000
  const total = us('sdk', 'fetch')
  const parts: Array<[string, number]> = [
    ['timeout signal and timer (fetch with a timeout signal − fetch)', us('timed', 'fetch')],
    ["the SDK's request: method, headers, User-Agent (− the line above)", us('request', 'timed')],
    ['lossless JSON parse instead of JSON.parse', us('lossless', 'request')],
    ["the SDK's own layers: envelope, retry loop, call objects (SDK − all above)", us('sdk', 'lossless')],
  ]
  printTable("Where the SDK's p50 over fetch goes (differences of interleaved p50s)", [
    ['part', 'µs', 'share of the p50 over fetch'],
    ...parts.map(([part, n]) => [part, n.toFixed(1), `${((n / (total || 1)) * 100).toFixed(0)}%`]),
    ['total: SDK − fetch', total.toFixed(1), '100%'],
  ])
}

/**
 * Self time of PROFILE_CALLS calls of `sdk` (this process: the SDK, undici, the event loop), the
 * top functions and the SDK's own files' share: where the SDK's extra time over fetch can be.
 */
async function whereTheTimeGoes(sdk: () => Promise<void>): Promise<void> {
  const profile = await profileWhile(async () => {
    for (let i = 0; i < PROFILE_CALLS; i++) await sdk()
  })
  const top = groupedSelfTime(profile, frameName).filter((g) => g.group !== '(idle)')
  const busy = top.reduce((a, g) => a + g.micros, 0) || 1
  printTable(
    `Where the SDK calls' time goes (CPU profile of ${PROFILE_CALLS} calls, self time, idle excluded)`,
    [
      ['function', 'µs per call', 'share'],
      ...top
        .slice(0, 12)
        .map((g) => [
          g.group,
          (g.micros / PROFILE_CALLS).toFixed(1),
          `${((g.micros / busy) * 100).toFixed(1)}%`,
        ]),
    ],
  )
  const own = groupedSelfTime(profile, (frame, parent) =>
    /@service-sdk|\/packages\/[a-z]+\/dist\//.test(frame.url)
      ? 'SDK'
      : frame.url
        ? 'other'
        : (parent ?? 'other'),
  )
  const sdkMicros = own.find((g) => g.group === 'SDK')?.micros ?? 0
  console.log(
    `SDK's own code (and the native calls it makes): ${(sdkMicros / PROFILE_CALLS).toFixed(1)} µs per call, ${((sdkMicros / busy) * 100).toFixed(1)}% of the busy time`,
  )
}
