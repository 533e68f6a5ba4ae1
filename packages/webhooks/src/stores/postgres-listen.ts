import { createClient, type PgClient, type PgQueryable, type PoolSettings } from './postgres-pool.ts'

/** How often the listening connection is checked (a black-holed one never reports an error). */
const CHECK_MS = 10_000
const CHECK_TIMEOUT_MS = 5_000
const MAX_BACKOFF_MS = 5_000

/**
 * LISTEN on a connection of its own and call `wake` on every notification. A lost connection is
 * opened again (backing off up to 5 s), and `wake` is called once it is back, since notifications
 * sent meanwhile are gone. Without a way to open a dedicated connection, nothing is listened to:
 * the worker's polling finds the events.
 */
export async function subscribe(init: {
  pool: PgQueryable
  settings: PoolSettings | undefined
  channel: string
  wake: () => void
}): Promise<() => Promise<void>> {
  const { pool, settings, channel, wake } = init
  const open = settings ? () => createClient(settings) : pool.connect?.bind(pool)
  if (!open) return async () => {}
  let stopped = false
  let client: PgClient | undefined
  let backoff = 250
  let retry: ReturnType<typeof setTimeout> | undefined
  let check: ReturnType<typeof setInterval> | undefined

  function drop(c: PgClient): void {
    if (client !== c) return
    client = undefined
    clearInterval(check)
    if (c.release) c.release(true)
    else void c.end?.().catch(() => {})
    if (!stopped) schedule()
  }

  function schedule(): void {
    retry = setTimeout(() => void connect(), backoff)
    retry.unref?.()
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }

  async function connect(): Promise<void> {
    let c: PgClient
    try {
      c = await open!()
    } catch {
      if (!stopped) schedule()
      return
    }
    if (stopped) {
      if (c.release) c.release(true)
      else await c.end?.().catch(() => {})
      return
    }
    client = c
    c.on?.('notification', () => wake())
    c.on?.('error', () => drop(c))
    c.on?.('end', () => drop(c))
    try {
      await c.query(`LISTEN "${channel}"`)
    } catch {
      drop(c)
      return
    }
    backoff = 250
    check = setInterval(() => {
      const timeout = new Promise<never>((_, reject) => {
        setTimeout(
          () => reject(new Error('listening connection check timed out')),
          CHECK_TIMEOUT_MS,
        ).unref?.()
      })
      Promise.race([c.query('SELECT 1'), timeout]).catch(() => drop(c))
    }, CHECK_MS)
    check.unref?.()
    wake()
  }

  await connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    if (client) {
      const c = client
      client = undefined
      clearInterval(check)
      if (c.release) c.release(true)
      else await c.end?.().catch(() => {})
    }
  }
}
