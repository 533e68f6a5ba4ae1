/**
 * Serializes critical sections per key (one object key, one upload id) within this process, so
 * "read the old metadata, write the new, drop the old data" never interleaves.
 */
export function keyedLock() {
  const tails = new Map<string, Promise<unknown>>()
  return async function withLock<T>(key: string, section: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve()
    const run = previous.then(section)
    const tail = run.catch(() => undefined)
    tails.set(key, tail)
    try {
      return await run
    } finally {
      if (tails.get(key) === tail) tails.delete(key)
    }
  }
}
