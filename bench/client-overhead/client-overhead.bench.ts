/**
 * Client overhead: `team.members.list()` against the simulator vs a bare `fetch` + `JSON.parse` of
 * the same request, and the typed escape hatch `team.raw.GET('/api/team/members')` (openapi-fetch
 * through the SDK's transport), interleaved in one run. Target: SDK p50 / fetch p50 <= 1.05;
 * raw p50 / fetch p50 is reported beside it (openapi-fetch builds a `Request` per call and the
 * transport reads its body once more), and so is fetch with what a per-attempt timeout adds (an
 * AbortSignal, a timer set and cleared): the share of the SDK's overhead that is its timeout. The
 * simulator runs in its own process so the clients share nothing but the network. When the target
 * is not met, a CPU profile of PROFILE_CALLS more SDK calls prints where their time goes: the
 * functions with the most self time, and the share of the SDK's own code (the @service-sdk
 * packages' files); PROFILE=1 prints it in any case.
 * About 15 s with CALLS=3000. `CALLS=20` runs it once quickly (a check that it works, not a figure).
 */
import { createTeamClient } from '@service-sdk/team'
import { frameName, groupedSelfTime, profileWhile } from '../lib/cpu-profile.ts'
import { percentile, printTable, recordTarget } from '../lib/report.ts'
import { startSimulatorProcess } from '../lib/simulator-process.ts'

const CALLS = Number(process.env.CALLS ?? 3000)
const WARMUP = Math.min(300, CALLS)
const PROFILE_CALLS = Number(process.env.PROFILE_CALLS ?? 1000)
const TARGET = 1.05

type Name = 'sdk' | 'raw' | 'fetch' | 'timed'

console.log(`client-overhead bench: about 15 s (${CALLS} calls of each of 4 clients, interleaved)`)
const sim = await startSimulatorProcess()
try {
  const url = `${sim.urls.base}/api/team/members`
  const headers = { authorization: `Bearer ${sim.credentials.teamApiKey}` }
  const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
  /** The baseline: one fetch and JSON.parse of the list, with `signal` when given. */
  const fetchList = async (signal?: AbortSignal) => {
    const response = await fetch(url, { headers, ...(signal ? { signal } : {}) })
    const body = JSON.parse(await response.text()) as { data: unknown[] }
    if (!Array.isArray(body.data)) throw new Error('unexpected body')
  }
  const runs: Record<Name, () => Promise<void>> = {
    fetch: () => fetchList(),
    async sdk() {
      await team.members.list()
    },
    // What a per-attempt timeout costs fetch alone: the signal, and the timer set and cleared.
    async timed() {
      const timer = new AbortController()
      const handle = setTimeout(() => timer.abort(), 30_000)
      try {
        await fetchList(timer.signal)
      } finally {
        clearTimeout(handle)
      }
    },
    async raw() {
      const { data } = await team.raw.GET('/api/team/members')
      if (!Array.isArray(data?.data)) throw new Error('unexpected body')
    },
  }
  const names = Object.keys(runs) as Name[]

  for (let i = 0; i < WARMUP; i++) for (const name of names) await runs[name]()
  const times: Record<Name, number[]> = { sdk: [], raw: [], fetch: [], timed: [] }
  for (let i = 0; i < CALLS; i++) {
    // Rotate which goes first so none always pays for another's garbage.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as Name
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
