#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { simulatorEnv } from './host/env.ts'
import { startSimulator } from './host/start.ts'

const HELP = `service-sim: the service, running locally

Usage: service-sim [--port 4010] [--oss-port 4011] [--host 127.0.0.1] [--seed seed.json] [--state ./sim-state]

  --port       port of the team API, open API and pages (default 4010; 0 for any)
  --oss-port   port of the object storage (default 4011; 0 for any)
  --host       interface to listen on (default 127.0.0.1)
  --seed       JSON file describing teams, users, whitelists, spaces and folders
  --state      keep state and uploaded objects in this directory across restarts
  --json       print the URLs and credentials as one JSON line (for scripts)
`

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    'oss-port': { type: 'string', default: '4011' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string' },
    state: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
})

if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}

async function main(): Promise<void> {
  const sim = await startSimulator({
    port: Number(values.port),
    ossPort: Number(values['oss-port']),
    host: values.host,
    ...(values.seed ? { seed: values.seed } : {}),
    ...(values.state ? { stateDir: values.state } : {}),
  })

  // Listening for signals before printing: whoever reads the URLs may stop us right away.
  const stop = async () => {
    await sim.stop()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  if (values.json) {
    process.stdout.write(`${JSON.stringify({ urls: sim.urls, credentials: sim.credentials })}\n`)
  } else {
    const { urls, credentials } = sim
    const env = Object.entries(simulatorEnv(sim))
      .map(([name, value]) => `  export ${name}=${value}`)
      .join('\n')
    process.stdout.write(`service-sim is running (local test credentials, not secrets of any real service)

  team API    ${urls.base}/api/team/members
  open API    ${urls.open}/open-api/standard/call/service/...
  selector    ${urls.app}/outer/outerChoice?type=content
  storage     ${urls.oss} (endPoint of sts-tmp)
  control     ${urls.base}/_sim/state

The variables the SDK's quick starts read:
${env}

Try: curl -H 'Authorization: Bearer ${credentials.teamApiKey}' ${urls.base}/api/team/members
Ctrl-C stops it.
`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `service-sim could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exit(1)
})
