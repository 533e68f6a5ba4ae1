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
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import type { WebhookError } from './errors.ts'
import type { WebhookHandlers } from './processor.ts'
import { runWorker } from './run-worker.ts'
import type { WebhookStore } from './store.ts'
import { postgresStore } from './stores/postgres.ts'
import type { ProcessingOptions } from './worker.ts'

interface HandlersModule {
  default?: WebhookHandlers
  handlers?: WebhookHandlers
  onError?: (error: WebhookError) => void | Promise<void>
  processing?: ProcessingOptions
  store?: WebhookStore
}

const USAGE =
  'usage: DATABASE_URL=postgres://… service-webhooks-worker <handlers module> [--schema s] [--table t] [--concurrency n]'

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      schema: { type: 'string' },
      table: { type: 'string' },
      concurrency: { type: 'string' },
      'statement-timeout': { type: 'string' },
    },
  })
  const [file] = positionals
  if (!file) throw new Error(USAGE)
  const mod = (await import(pathToFileURL(resolve(file)).href)) as HandlersModule
  const handlers = mod.handlers ?? mod.default
  if (!handlers)
    throw new Error(`${file} exports no handlers (export const handlers = { MATERIAL_DELETED: … }).`)
  const url = process.env.DATABASE_URL
  if (!mod.store && !url) throw new Error(`DATABASE_URL is not set. ${USAGE}`)
  const store =
    mod.store ??
    postgresStore(url!, {
      ...(values.schema ? { schema: values.schema } : {}),
      ...(values.table ? { table: values.table } : {}),
      ...(values['statement-timeout'] ? { statementTimeoutMs: Number(values['statement-timeout']) } : {}),
    })
  const concurrency = values.concurrency ? Number(values.concurrency) : undefined
  const worker = runWorker({
    store,
    handlers,
    logger: console,
    processing: { ...mod.processing, ...(concurrency ? { concurrency } : {}) },
    ...(mod.onError ? { onError: mod.onError } : {}),
  })
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
  console.error(`service-webhooks-worker: ${(error as Error).message}`)
  process.exit(2)
})
