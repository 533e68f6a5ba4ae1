#!/usr/bin/env node
/**
 * service-webhooks-worker: process the events that receivers stored in PostgreSQL, in a process
 * of its own.
 *
 *     DATABASE_URL=postgres://… service-webhooks-worker ./handlers.js [--schema s] [--table t]
 *       [--concurrency n] [--statement-timeout ms]
 *
 * The module exports `handlers` (by event type, `'*'` for all; or as its default export), and
 * optionally `onError` and `processing`, or a ready `store` instead of DATABASE_URL. SIGTERM or
 * SIGINT: stop claiming, let the handlers in flight finish, exit 0.
 */
import { ServiceValidationError } from '@service-sdk/core'
import { WORKER_USAGE, workerCliOptions } from './cli/worker-cli-options.ts'
import { runWorker } from './receiver/run-worker.ts'

async function main(): Promise<void> {
  const options = await workerCliOptions(process.argv.slice(2), process.env)
  const worker = runWorker({ ...options, logger: console })
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}

main().catch((error: unknown) => {
  if (ServiceValidationError.isInstance(error)) {
    const issues = error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
    console.error(`service-webhooks-worker: ${issues}\n${WORKER_USAGE}`)
  } else console.error(`service-webhooks-worker: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(2)
})
