/**
 * The simulator in a process of its own, for bench/upload: prints its URLs and credentials as one
 * JSON line, then serves until killed. Objects go to `stateDir` (the directory store: MD5 ETags
 * and disk writes, as in the simulator's own benchmark), so memory stays small across runs.
 * Started with an IPC channel, it answers the message `cpu` with its `process.cpuUsage()`, so
 * a benchmark can count the server's CPU per run.
 *
 *   node server.ts <stateDir>
 */
import { startSimulator } from '@service-sdk/simulator'

const sim = await startSimulator(process.argv[2] ? { stateDir: process.argv[2] } : {})
process.stdout.write(`${JSON.stringify({ urls: sim.urls, credentials: sim.credentials })}\n`)
process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage())
})
process.once('SIGTERM', async () => {
  await sim.stop()
  process.exit(0)
})
