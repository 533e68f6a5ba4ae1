import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { type RawOss, rawOss, recordingClient, type Workspace, workspace } from './helpers.ts'

// The set-up the upload test files share: one simulator and one temporary directory per file.
// Vitest evaluates this module once per test file, so `sim` and `work` are that file's; they are
// live bindings, set by `useUploadFixture`'s beforeAll.

/** The file's simulator, started before its tests (faults cleared after each one). */
export let sim: RunningSimulator
/** The file's temporary directory, for the files it uploads. */
export let work: Workspace

/** Starts `sim` and makes `work` before the file's tests, clears faults after each, removes both after all. */
export function useUploadFixture(): void {
  beforeAll(async () => {
    sim = await startSimulator()
    work = await workspace()
  })
  afterEach(() => {
    sim.control.faults.clear()
  })
  afterAll(async () => {
    await sim.stop()
    await work.remove()
  })
}

/** The object store as any OSS user sees it, on fresh credentials: some tests expire every credential issued so far. */
export const fresh = async (): Promise<RawOss> => rawOss(await recordingClient(sim).open.credentials())
