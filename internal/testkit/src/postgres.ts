import pg from 'pg'
import { requiredInCi } from './required.ts'

/** The test database (trust auth), as in CI; `POSTGRES_URL` points elsewhere. */
export const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface PostgresAvailability {
  available: boolean
  url: string
}

/** A real PostgreSQL (the machine's, trust auth), or a loud skip (a failure under CI). */
export async function postgresOrSkip(): Promise<PostgresAvailability> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return { available: true, url: POSTGRES_URL }
  } catch (error) {
    requiredInCi('PostgreSQL', `${POSTGRES_URL}: ${(error as Error).message}`)
    return { available: false, url: POSTGRES_URL }
  } finally {
    await client.end().catch(() => {})
  }
}
