import { createHash } from 'node:crypto'

/** Where the inbox lives, as SQL names, and the names derived from it. */
export interface TableNames {
  /** The bare table name (index names start with it). */
  table: string
  schema: string | undefined
  /** The quoted, schema-qualified name to put in SQL. */
  name: string
  /** The LISTEN/NOTIFY channel: one per table, short enough for an identifier whatever the names. */
  channel: string
  /** Key of the transaction-level advisory lock that serializes claims of ordered events (an int8). */
  claimLock: string
  /** Key of the advisory lock that serializes schema changes in the table's schema (an int8). */
  migrationLock: string
}

export function tableNames(table: string, schema: string | undefined): TableNames {
  const name = schema ? `"${schema}"."${table}"` : `"${table}"`
  return {
    table,
    schema,
    name,
    channel: `webhooks_${digest(name).toString('hex').slice(0, 24)}`,
    claimLock: digest(`claim ${name}`).readBigInt64BE().toString(),
    migrationLock: digest(`migrate ${schema ?? ''}`)
      .readBigInt64BE()
      .toString(),
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
