/**
 * Client overhead: `team.members.list()` against the simulator vs a raw `fetch` + `JSON.parse` of
 * the same request, interleaved in one run. Target: SDK p50 / raw p50 <= 1.15.
 * The simulator runs in its own process so the two clients share nothing but the network.
 */
import { createTeamClient } from '@service-sdk/team'
import { percentile, printTable } from '../lib/report.ts'
import { startSimulatorProcess } from '../lib/simulator-process.ts'

const CALLS = Number(process.env.CALLS ?? 3000)
const WARMUP = 300

const sim = await startSimulatorProcess()
try {
  const url = `${sim.urls.base}/api/team/members`
  const headers = { authorization: `Bearer ${sim.credentials.teamApiKey}` }
  const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
  const raw = async () => {
    const response = await fetch(url, { headers })
    const body = JSON.parse(await response.text()) as { data: unknown[] }
    if (!Array.isArray(body.data)) throw new Error('unexpected body')
  }
  const sdk = async () => {
    await team.members.list()
  }

  for (let i = 0; i < WARMUP; i++) {
    await raw()
    await sdk()
  }
  const times = { sdk: [] as number[], raw: [] as number[] }
  for (let i = 0; i < CALLS; i++) {
    // Alternate which goes first so neither always pays for the other's garbage.
    for (const [name, run] of i % 2 === 0
      ? ([
          ['sdk', sdk],
          ['raw', raw],
        ] as const)
      : ([
          ['raw', raw],
          ['sdk', sdk],
        ] as const)) {
      const start = performance.now()
      await run()
      times[name].push(performance.now() - start)
    }
  }
  const p = (name: 'sdk' | 'raw', q: number) => percentile(times[name], q)
  const ratio = p('sdk', 50) / p('raw', 50)
  printTable(`team.members.list(), ${CALLS} calls each, interleaved`, [
    ['', 'p50 ms', 'p99 ms'],
    ['SDK', p('sdk', 50).toFixed(3), p('sdk', 99).toFixed(3)],
    ['raw fetch + JSON.parse', p('raw', 50).toFixed(3), p('raw', 99).toFixed(3)],
  ])
  console.log(`ratio p50 SDK/raw: ${ratio.toFixed(3)} (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'})`)
  console.log(`ratio p99 SDK/raw: ${(p('sdk', 99) / p('raw', 99)).toFixed(3)}`)
} finally {
  await sim.stop()
}
