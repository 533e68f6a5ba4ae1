import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type RunningSimulator, simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, expect, test } from 'vitest'

const exec = promisify(execFile)
const script = join(import.meta.dirname, '..', 'src', 'upload-folder.ts')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

let sim: RunningSimulator
let folder: string
const files: Record<string, Uint8Array> = {
  'a.txt': new TextEncoder().encode('hello'),
  'photos/beach.jpg': new Uint8Array(300 * 1024).map((_, i) => i % 251),
  'photos/2026/snow.png': new Uint8Array(2048).fill(7),
}

beforeAll(async () => {
  sim = await startSimulator()
  folder = await mkdtemp(join(tmpdir(), 'upload-folder-'))
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(join(folder, name, '..'), { recursive: true })
    await writeFile(join(folder, name), bytes)
  }
  await writeFile(join(folder, '.DS_Store'), 'hidden')
})

afterAll(async () => {
  await sim?.stop()
  if (folder) await rm(folder, { recursive: true, force: true })
})

test('the script uploads every file of the folder, shows progress, and prints each accessUrl', async () => {
  const { stdout, stderr } = await exec(process.execPath, [script, folder], {
    env: { PATH: process.env.PATH, ...simulatorEnv(sim) },
  })
  const lines = stdout.trim().split('\n')
  expect(lines).toHaveLength(3)
  expect(stderr).toMatch(/3\/3 files saved/)
  for (const line of lines) {
    const [, name, url] = /^ok (\S+) -> (\S+)$/.exec(line) ?? []
    const bytes = files[name as string]
    expect(bytes, line).toBeDefined()
    const served = new Uint8Array(await (await fetch(url as string)).arrayBuffer())
    expect(sha256(served)).toBe(sha256(bytes as Uint8Array))
  }
})

test('without the environment it says what is missing and exits 2', async () => {
  const failure = await exec(process.execPath, [script, folder], { env: { PATH: process.env.PATH } }).catch(
    (error: { code: number; stderr: string }) => error,
  )
  expect(failure).toMatchObject({ code: 2 })
  expect((failure as { stderr: string }).stderr).toMatch(/SERVICE_OPEN_URL is not set/)
})
