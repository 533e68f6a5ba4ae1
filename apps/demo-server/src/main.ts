import { ConfigError, loadConfig } from './config.ts'
import { consoleLog } from './log.ts'
import { type RunningDemo, startDemo } from './start.ts'

// `pnpm demo`: the whole demo in one process; Ctrl-C stops it cleanly (a second Ctrl-C forces it).
const log = consoleLog()

function fail(error: unknown): never {
  if (error instanceof ConfigError) console.error(`\n${error.message}\n`)
  else console.error('\nThe demo could not start:', error instanceof Error ? error.message : error, '\n')
  process.exit(1)
}

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig(process.env)
} catch (error) {
  fail(error)
}

// The handlers are in place before anything starts: a signal while starting stops the demo as soon
// as it has started (nothing is left half-open), and `src/demo.ts` hands over to this module.
let demo: RunningDemo | undefined
let stopping = false
const stop = (running: RunningDemo) =>
  running.stop().then(
    () => {
      log.info('stopped.')
      process.exit(0)
    },
    (error) => {
      log.error('shutdown failed', error)
      process.exit(1)
    },
  )
const shutdown = (signal: string) => {
  if (stopping) {
    log.warn(`${signal} again: exiting now`)
    process.exit(130)
  }
  stopping = true
  log.info(`${signal}: shutting down (uploads in flight finish first; ${signal} again to force)…`)
  if (demo) stop(demo)
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))

log.info(
  config.mode === 'simulator'
    ? 'starting on the built-in simulator…'
    : 'starting against the configured service…',
)
demo = await startDemo(config, { log }).catch(fail)
if (stopping) stop(demo)
else {
  // One URL: the page (its overview shows where webhooks arrive, and /docs the reference).
  console.log(`
  Service SDK demo (${demo.mode === 'simulator' ? 'simulator' : 'live service'})  ➜  ${demo.url}   Ctrl-C stops it.
`)
}
