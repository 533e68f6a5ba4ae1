/**
 * PostgreSQL's own ceiling on this machine for what a receiver does per event: multi-row INSERTs
 * (`unnest`, ON CONFLICT DO NOTHING, same table and indexes as postgresStore) from two
 * connections in a loop, each a transaction of its own, the rows the bench sends. Also its own
 * CPU time per row (building the rows and the pg client's work), to set beside the receivers', and
 * the local server's (pg-cpu.ts).
 */
import pg from 'pg'
import { postgresCpuSince, postgresCpuSnapshot } from './pg-cpu.ts'

export async function insertCeiling(options: {
  url: string
  schema: string
  seconds: number
  body: () => string
  /** Rows per statement: about what group commit gathers under this load. */
  rows?: number
}): Promise<{ rate: number; cpuPerRow: number; serverCpuPerRow: number | undefined }> {
  const pool = new pg.Pool({ connectionString: options.url, max: 2 })
  const table = `"${options.schema}"."ceiling"`
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table} (LIKE "${options.schema}"."webhook_events" INCLUDING ALL)`,
  )
  const rows = options.rows ?? 32
  const cpu = process.cpuUsage()
  const server = postgresCpuSnapshot()
  const until = Date.now() + options.seconds * 1_000
  let inserted = 0
  const loop = async () => {
    while (Date.now() < until) {
      const bodies = Array.from({ length: rows }, options.body)
      const keys = bodies.map((b) => /"eventId":"([^"]+)"/.exec(b)![1]!)
      const now = Date.now()
      const { rowCount } = await pool.query(
        `INSERT INTO ${table} (key, event_type, body, received_at, next_attempt_at)
         SELECT k, 'MATERIAL_DELETED', b, $3, $3 FROM unnest($1::text[], $2::text[]) AS u(k, b)
         ON CONFLICT (key) DO NOTHING`,
        [keys, bodies, now],
      )
      inserted += rowCount ?? 0
    }
  }
  await Promise.all([loop(), loop()])
  const { user, system } = process.cpuUsage(cpu)
  const serverCpu = postgresCpuSince(server)
  await pool.end()
  const stored = Math.max(1, inserted)
  return {
    rate: inserted / options.seconds,
    cpuPerRow: (user + system) / stored,
    serverCpuPerRow: serverCpu === undefined ? undefined : serverCpu / stored,
  }
}
