import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { CliError } from './errors.ts'

export interface Lock {
  release(): void
}

/**
 * An exclusive lock: a file holding the owner's pid, created by a hard link (which fails when the
 * name exists), so that it is never seen empty. A lock whose process is
 * gone (a run killed with `kill -9`) is taken over at once, under a second lock file so that two
 * runs cannot both take over the same one. (proper-lockfile decides staleness by the lock's age,
 * so a run after `kill -9` would wait out its stale period, and it gives up a lock whose refresh
 * was late, which a busy machine can cause mid-upload.)
 */
export function acquireLock(path: string, busy: (pid: number) => CliError): Lock {
  if (!create(path)) {
    const owner = ownerOf(path)
    if (owner !== undefined && alive(owner)) throw busy(owner)
    const takeover = `${path}.takeover`
    if (!create(takeover)) {
      const other = ownerOf(takeover)
      if (other !== undefined && alive(other)) throw busy(other)
      rmSync(takeover, { force: true })
      if (!create(takeover)) throw busy(ownerOf(takeover) ?? 0)
    }
    try {
      // Still the same stale lock? Only a holder of `takeover` may remove it.
      const now = ownerOf(path)
      if (now !== undefined && alive(now)) throw busy(now)
      rmSync(path, { force: true })
      if (!create(path)) throw busy(ownerOf(path) ?? 0)
    } finally {
      rmSync(takeover, { force: true })
    }
  }
  const release = () => {
    if (ownerOf(path) === process.pid) rmSync(path, { force: true })
    process.removeListener('exit', release)
  }
  // process.exit (Ctrl-C, q) skips `finally` blocks, not 'exit' listeners.
  process.on('exit', release)
  return { release }
}

/** Creates `path` holding this pid, whole or not at all (a link fails when the name exists). */
function create(path: string): boolean {
  const draft = `${path}.${process.pid}`
  writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 })
  try {
    linkSync(draft, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    rmSync(draft, { force: true })
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
