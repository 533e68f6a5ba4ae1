import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { WebhookStore } from '@service-sdk/webhooks'
import { stateDir } from '../config.ts'
import { CliError } from '../errors.ts'

/** Where the inbox is: `--store` (a SQLite file or a PostgreSQL URL), `--schema`, `--table`. */
export interface InboxLocation {
  store?: string
  schema?: string
  table?: string
}

/** The inbox `service-sdk listen` keeps, the default of every `inbox` command. */
export const listenInbox = () => join(stateDir(), 'listen.sqlite')

const isPostgres = (store: string) => /^postgres(ql)?:\/\//i.test(store)

/**
 * Opens the inbox only once it is known to be one: a SQLite file that exists and holds the
 * table, or a PostgreSQL database that has it. Nothing is created (the stores would create a
 * missing table or schema on first use). Errors say what is wrong and never show a password.
 */
export async function openInbox(where: InboxLocation): Promise<{ store: WebhookStore; shown: string }> {
  const table = where.table ?? 'webhook_events'
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(table))
    throw new CliError('usage', `--table ${table} is not a plain identifier`, 'Letters, digits and _')
  const store = where.store ?? listenInbox()
  const { postgresStore, sqliteStore } = await import('@service-sdk/webhooks')
  if (isPostgres(store)) {
    const shown = shownUrl(store)
    await checkPostgres(store, shown, where.schema, table)
    return {
      store: postgresStore(store, {
        table,
        ...(where.schema ? { schema: where.schema } : {}),
        max: 2,
        connectTimeoutMs: 5_000,
      }),
      shown,
    }
  }
  if (where.schema) throw new CliError('usage', '--schema applies to a PostgreSQL inbox only')
  const path = resolve(store)
  checkSqlite(path, table, where.store === undefined)
  return { store: sqliteStore(path, { table }), shown: path }
}

/** The URL as it may be shown: no user, no password, no query. */
function shownUrl(url: string): string {
  if (!URL.canParse(url)) return '<a PostgreSQL URL>'
  const { protocol, host, pathname } = new URL(url)
  return `${protocol}//${host}${pathname}`
}

function checkSqlite(path: string, table: string, isDefault: boolean): void {
  if (!existsSync(path))
    throw new CliError(
      'usage',
      `No inbox at ${path}: the file does not exist`,
      isDefault
        ? '`service-sdk listen` makes this inbox when it first runs; or name one with --store <file | postgres://…>'
        : 'Check the path, or give a PostgreSQL URL (postgres://…)',
    )
  if (!statSync(path).isFile()) throw new CliError('usage', `${path} is not a file`)
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite')
  let db: import('node:sqlite').DatabaseSync | undefined
  try {
    db = new sqlite.DatabaseSync(path, { readOnly: true })
    const found = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table)
    if (!found)
      throw new CliError('usage', `${path} holds no inbox table "${table}"`, 'Name the table with --table')
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(
      'usage',
      `${path} is not a SQLite database`,
      'Give the inbox file (or a postgres:// URL)',
    )
  } finally {
    db?.close()
  }
}

async function checkPostgres(url: string, shown: string, schema: string | undefined, table: string) {
  let pg: typeof import('pg').default
  try {
    pg = (await import('pg')).default
  } catch {
    throw new CliError('config', 'Reading a PostgreSQL inbox needs the `pg` package', 'npm install pg')
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'no answer'
    throw new CliError(
      'unreachable',
      `Cannot reach the database at ${shown} (${code})`,
      'Check the URL and that PostgreSQL runs',
    )
  }
  try {
    const name = schema ? `"${schema.replaceAll('"', '""')}"."${table}"` : table
    const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [name])
    if (rows[0]?.found == null)
      throw new CliError(
        'usage',
        `No inbox table ${schema ? `${schema}.` : ''}${table} in ${shown}`,
        'Name its schema with --schema and its table with --table',
      )
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(
      'failed',
      `The database at ${shown} refused the check (${(error as { code?: string }).code ?? 'error'})`,
    )
  } finally {
    await client.end().catch(() => {})
  }
}
