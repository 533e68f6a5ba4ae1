import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { UploadCheckpoint, UploadedAsset } from '../src/index.ts'
import {
  countOss,
  MiB,
  rawOss,
  recordingClient,
  servedHash,
  sha256,
  testBytes,
  type Workspace,
  workspace,
} from './upload/helpers.ts'

// Crash and resume across processes: a child uploads with a checkpoint directory and is killed
// with SIGKILL mid-upload (no cleanup runs); a new process resumes from the persisted checkpoint.

let sim: RunningSimulator
let work: Workspace

beforeAll(async () => {
  sim = await startSimulator()
  work = await workspace()
})
afterAll(async () => {
  await sim.stop()
  await work.remove()
})

const child = join(import.meta.dirname, 'upload', 'crash-child.ts')

type Line = {
  progress?: number
  phase?: string
  uploadId?: string
  done?: UploadedAsset
  error?: string
  code?: string
}

/**
 * Parts the checkpoint in `dir` records now (0 while there is none). The checkpoint is written
 * after a part completes, so a progress line can come before the write that records its part.
 */
function checkpointedParts(dir: string): number {
  try {
    const file = readdirSync(dir).find((f) => f.endsWith('.json'))
    return file ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as UploadCheckpoint).parts.length : 0
  } catch {
    return 0
  }
}

/** Runs the child; `onLine` sees each JSON line it prints and may kill it. */
function run(args: Record<string, unknown>, onLine: (line: Line, process: ChildProcess) => void) {
  const process_ = spawn(
    process.execPath,
    ['--conditions=@service-sdk/source', child, JSON.stringify(args)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  createInterface({ input: process_.stdout! }).on('line', (text) =>
    onLine(JSON.parse(text) as Line, process_),
  )
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    process_.once('exit', (code, signal) => resolve({ code, signal })),
  )
}

test('a process killed mid-upload (SIGKILL): a new process resumes from the checkpoint and re-sends at most the parts in flight', async () => {
  // Parts larger than what the sockets buffer, so parts held at the kill are really cut short.
  const size = 24 * MiB
  const partSize = 2 * MiB
  const parallel = 3
  const parts = size / partSize
  const bytes = testBytes(size)
  const path = await work.file('crash-resume.bin', bytes)
  const checkpoint = join(work.dir, 'checkpoints')
  const args = {
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    path,
    checkpoint,
    partSize,
    parallel,
  }
  const before = sim.control.snapshot().materials.length

  // Slow parts, so the kill lands with parts in flight. The rule also counts every part request
  // for this file (the first matching rule is the one that fires).
  const slow = sim.control.faults.inject({
    match: { target: 'oss', op: 'UploadPart', path: 'crash-resume.bin' },
    action: { type: 'latency', ms: 300 },
    times: Infinity,
  })
  const firstRun = countOss(sim, ['InitiateMultipartUpload'], 'crash-resume.bin')
  let uploadId: string | undefined
  const killed = await run(args, (line, process_) => {
    uploadId ??= line.uploadId
    // Mid-upload: 40% sent, and a part recorded (on a loaded machine the checkpoint's write can
    // lag the progress lines).
    if ((line.progress ?? 0) >= size * 0.4 && checkpointedParts(checkpoint) > 0) process_.kill('SIGKILL')
  })
  expect(killed.signal).toBe('SIGKILL')
  const sentBeforeKill: Record<string, number> = { ...firstRun(), UploadPart: slow.hits }
  sim.control.faults.clear()

  // What the dead process left: a checkpoint with no secret, and a multipart upload still open.
  const files = (await readdir(checkpoint)).filter((f) => f.endsWith('.json'))
  expect(files).toHaveLength(1)
  const text = await readFile(join(checkpoint, files[0]!), 'utf8')
  const left = JSON.parse(text) as UploadCheckpoint
  expect(left).toMatchObject({ key: expect.stringContaining('crash-resume.bin'), uploadId, partSize })
  expect(left.parts.length).toBeGreaterThan(0)
  expect(left.parts.length).toBeLessThan(parts)
  for (const sts of sim.control.snapshot().sts) {
    expect(text).not.toContain(sts.accessKeySecret)
    expect(text).not.toContain(sts.securityToken)
  }
  const credential = await recordingClient(sim).open.credentials()
  const onServer = await rawOss(credential).listParts(left.key, left.uploadId!)
  expect(onServer.parts).toBeDefined()

  // A new process, same arguments: it resumes the same multipart upload.
  const secondRun = countOss(sim, ['UploadPart', 'InitiateMultipartUpload', 'ListParts'], 'crash-resume.bin')
  let asset: UploadedAsset | undefined
  let resumedId: string | undefined
  const resumed = await run(args, (line) => {
    asset ??= line.done
    if (line.done) resumedId = line.uploadId
  })
  expect(resumed.code).toBe(0)
  expect(asset).toBeDefined()
  expect(resumedId).toBe(uploadId)
  expect(secondRun().InitiateMultipartUpload).toBe(0)
  expect(secondRun().ListParts).toBe(1)

  // Parts sent more than once, over both processes: at most the ones in flight at the kill.
  const sentTwice = sentBeforeKill.UploadPart! + secondRun().UploadPart! - parts
  expect(sentTwice).toBeGreaterThanOrEqual(0)
  expect(sentTwice).toBeLessThanOrEqual(parallel)
  expect(sentBeforeKill.InitiateMultipartUpload).toBe(1)

  expect(asset!.size).toBe(size)
  expect(await servedHash(asset!.accessUrl)).toBe(sha256(bytes))
  expect(sim.control.snapshot().materials.length).toBe(before + 1)
  // Saved: the checkpoint is gone.
  expect((await readdir(checkpoint)).filter((f) => f.endsWith('.json'))).toEqual([])
}, 90_000) // two Node processes, each loading the SDK from source: slow on a loaded machine

test('a process killed while material-save is in flight (SIGKILL): the rerun saves nothing by itself (save_outcome_unknown), so the asset exists once', async () => {
  const bytes = testBytes(1 * MiB)
  const path = await work.file('killed-saving.bin', bytes)
  const checkpoint = join(work.dir, 'checkpoints-saving')
  const args = {
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    path,
    checkpoint,
    partSize: 8 * MiB,
    parallel: 1,
  }
  const assets = () =>
    sim.control.snapshot().materials.filter((m) => String(m.key).endsWith('killed-saving.bin'))
  // The service saves the asset, then its answer is held: the process dies before it arrives.
  sim.control.faults.inject({
    match: { target: 'open', path: 'material-save' },
    action: { type: 'latency', ms: 10_000 },
    when: 'after',
  })
  const killed = await run(args, (line, process_) => {
    if (line.phase !== 'saving') return
    const poll = setInterval(() => {
      if (assets().length === 0) return
      clearInterval(poll)
      process_.kill('SIGKILL')
    }, 5)
  })
  expect(killed.signal).toBe('SIGKILL')
  sim.control.faults.clear()
  expect(assets()).toHaveLength(1)

  // The same command again: the checkpoint says the save was sent; nothing is saved again.
  const lines: Line[] = []
  const rerun = await run(args, (line) => lines.push(line))
  expect(rerun.code).toBe(1)
  expect(lines.at(-1)).toMatchObject({ code: 'save_outcome_unknown' })
  expect(assets()).toHaveLength(1)
  // A second rerun still does not save (the checkpoint stays until the caller decides).
  await run(args, () => {})
  expect(assets()).toHaveLength(1)

  // Only the caller's explicit word saves again (here it makes the second asset it warns of).
  let asset: UploadedAsset | undefined
  const forced = await run({ ...args, saveAgain: true }, (line) => {
    asset ??= line.done
  })
  expect(forced.code).toBe(0)
  expect(asset?.size).toBe(bytes.length)
  expect(assets()).toHaveLength(2)
  expect((await readdir(checkpoint)).filter((f) => f.endsWith('.json'))).toEqual([])
}, 90_000)
