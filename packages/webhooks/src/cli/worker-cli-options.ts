import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { ServiceValidationError } from '@service-sdk/core'
import type { WebhookError } from '../errors.ts'
import type { WebhookHandlers } from '../receiver/processor.ts'
import type { RunWorkerOptions } from '../receiver/run-worker.ts'
import { postgresStore } from '../stores/postgres/postgres.ts'
import type { WebhookStore } from '../stores/store.ts'
import type { ProcessingOptions } from '../worker/worker.ts'

/** What the handlers module given to `service-webhooks-worker` may export. */
interface HandlersModule {
  default?: WebhookHandlers
  handlers?: WebhookHandlers
  onError?: (error: WebhookError) => void | Promise<void>
  processing?: ProcessingOptions
  store?: WebhookStore
}

export const WORKER_USAGE =
  'usage: DATABASE_URL=postgres://… service-webhooks-worker <handlers module> [--schema s] [--table t] [--concurrency n] [--statement-timeout ms]'

const invalid = (path: string, message: string) =>
  new ServiceValidationError('service-webhooks-worker arguments', [{ path, message }])

/**
 * The worker's options from its command line and environment: the handlers module imported, the
 * store made (not opened). Bad arguments are a `ServiceValidationError`.
 */
export async function workerCliOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunWorkerOptions> {
  const { values, positionals } = parsed(args)
  const [file] = positionals
  if (!file) throw invalid('<handlers module>', 'missing')
  const mod = (await import(pathToFileURL(resolve(file)).href)) as HandlersModule
  const handlers = mod.handlers ?? mod.default
  if (!handlers) {
    throw invalid(
      '<handlers module>',
      `${file} exports no handlers (export const handlers = { MATERIAL_DELETED: … })`,
    )
  }
  const url = env.DATABASE_URL
  if (!mod.store && !url)
    throw invalid('DATABASE_URL', 'is not set (or export a store from the handlers module)')
  const store =
    mod.store ??
    postgresStore(url as string, {
      ...(values.schema ? { schema: values.schema } : {}),
      ...(values.table ? { table: values.table } : {}),
      ...(values['statement-timeout'] ? { statementTimeoutMs: Number(values['statement-timeout']) } : {}),
    })
  const concurrency = values.concurrency ? Number(values.concurrency) : undefined
  return {
    store,
    handlers,
    processing: { ...mod.processing, ...(concurrency === undefined ? {} : { concurrency }) },
    ...(mod.onError ? { onError: mod.onError } : {}),
  }
}

function parsed(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        schema: { type: 'string' },
        table: { type: 'string' },
        concurrency: { type: 'string' },
        'statement-timeout': { type: 'string' },
      },
    })
  } catch (error) {
    // node:util's own refusal (an unknown option, a missing value): its message says which.
    throw invalid('options', error instanceof Error ? error.message : String(error))
  }
}
