/**
 * What Node's fetch rejects with when the server resets the connection, for a simulator called
 * in-process (no socket to destroy): the client under test must see the platform's own error.
 */
export function connectionReset(): TypeError {
  // biome-ignore lint/plugin: an imitation of the platform's socket error (undici's cause), not an error of the simulator
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
  return new TypeError('fetch failed', { cause })
}

/** Whether `error` is the rejection of a connection reset (fault `reset`), as fetch gives one. */
export function isConnectionReset(error: unknown): boolean {
  return error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === 'ECONNRESET'
}
