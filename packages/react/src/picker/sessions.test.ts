import { type FolderChoice, SelectorError } from '@service-sdk/selector'
import { describe, expect, test } from 'vitest'
import { PickerSessions } from './sessions.ts'

// The session bookkeeping alone, with a scripted stand-in for the selector's flows (the real
// selector page runs in test/browser.test.ts).

function scripted() {
  const signals: AbortSignal[] = []
  let answer!: { resolve(c: FolderChoice | null): void; reject(e: unknown): void }
  const start = (signal: AbortSignal) => {
    signals.push(signal)
    return new Promise<FolderChoice | null>((resolve, reject) => {
      answer = { resolve, reject }
      signal.addEventListener('abort', () => reject(new SelectorError('aborted', 'aborted', signal.reason)))
    })
  }
  return { start, signals, answer: () => answer }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('PickerSessions', () => {
  test('one session at a time: a second run while open returns the same promise', async () => {
    const sessions = new PickerSessions()
    const { start, signals, answer } = scripted()
    const first = sessions.run(start)
    expect(sessions.run(start)).toBe(first)
    expect(signals).toHaveLength(1)
    answer().resolve({ folderId: '5', orgId: null })
    expect(await first).toEqual({ folderId: '5', orgId: null })
    expect(sessions.open).toBe(false)
  })

  test('close() takes the page down and resolves null, not a rejection', async () => {
    const sessions = new PickerSessions()
    const { start, signals } = scripted()
    const pending = sessions.run(start)
    sessions.close()
    expect(signals[0]!.aborted).toBe(true)
    expect(await pending).toBeNull()
  })

  test('a failure of the page rejects with its SelectorError', async () => {
    const sessions = new PickerSessions()
    const { start, answer } = scripted()
    const pending = sessions.run(start)
    answer().reject(new SelectorError('timeout', 'did not load'))
    await expect(pending).rejects.toMatchObject({ code: 'timeout' })
  })

  test('unmount then mount in the same task (StrictMode) keeps the page; a real unmount closes it', async () => {
    const sessions = new PickerSessions()
    const { start, signals } = scripted()
    const pending = sessions.run(start)
    sessions.unmount()
    sessions.mount()
    await tick()
    expect(signals[0]!.aborted).toBe(false)
    sessions.unmount()
    await tick()
    expect(signals[0]!.aborted).toBe(true)
    expect(await pending).toBeNull()
    // After the unmount nothing opens.
    expect(await sessions.run(start)).toBeNull()
    expect(signals).toHaveLength(1)
  })

  test('a start that throws synchronously rejects instead of throwing', async () => {
    const sessions = new PickerSessions()
    const pending = sessions.run(() => {
      throw new SelectorError('unsupported', 'no document here')
    })
    await expect(pending).rejects.toMatchObject({ name: 'SelectorError' })
    expect(sessions.open).toBe(false)
  })
})
