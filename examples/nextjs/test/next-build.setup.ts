import { spawn } from 'node:child_process'
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

/** What test/next-build.test.ts reads: the build's output, and its outcome once it ended. */
export interface NextBuildFiles {
  log: string
  /** Written when the build ends: `{ "code": number | null, "signal": string | null }`. */
  outcome: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    nextBuild: NextBuildFiles
  }
}

const dir = join(import.meta.dirname, '..')
export const nextBin = join(dir, 'node_modules', 'next', 'dist', 'bin', 'next')

/**
 * Starts `next build` when the run starts, in the background, instead of inside the test file:
 * the build takes one to three minutes, and a test file that waited for it would hold a test
 * worker (the only one on a 2-core machine) all that time. The build runs at a lower CPU priority
 * (`nice`), so the other test files go first; test/next-build.test.ts waits for its outcome.
 * A run without that file (e.g. only routes.test.ts) stops the build at its end.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'example-nextjs-build-'))
  const files: NextBuildFiles = { log: join(work, 'build.log'), outcome: join(work, 'outcome.json') }
  const out = openSync(files.log, 'w')
  const node = [process.execPath, nextBin, 'build']
  const [command, ...args] = process.platform === 'win32' ? node : ['nice', '-n', '10', ...node]
  const build = spawn(command as string, args, {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', out, out],
    // Its own process group, so that stopping it stops the workers it started too.
    detached: process.platform !== 'win32',
  })
  const ended = new Promise<void>((resolve) => {
    build.on('error', (error) => {
      writeFileSync(files.log, `could not start next build: ${error.message}\n`, { flag: 'a' })
      writeFileSync(files.outcome, JSON.stringify({ code: null, signal: null }))
      resolve()
    })
    build.on('exit', (code, signal) => {
      writeFileSync(files.outcome, JSON.stringify({ code, signal }))
      resolve()
    })
  })
  project.provide('nextBuild', files)
  return async () => {
    if (build.exitCode === null && build.signalCode === null) {
      if (build.pid !== undefined && process.platform !== 'win32') process.kill(-build.pid, 'SIGTERM')
      else build.kill()
    }
    await ended
    rmSync(work, { recursive: true, force: true })
  }
}
