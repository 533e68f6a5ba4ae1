import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

/**
 * The built binary, run as a user runs it: `pnpm build` (turbo) makes it. CLI_TEST_BIN runs the
 * tests against another build (an older one, to see a new test fail there).
 */
export const BIN = process.env.CLI_TEST_BIN ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url))
if (!existsSync(BIN))
  throw new Error(`${BIN} is missing: build first (pnpm turbo run build --filter=@service-sdk/cli...)`)

export interface Home {
  dir: string
  /** HOME and XDG directories of a fresh user, no colours, no SERVICE_* from the test's own environment. */
  env: Record<string, string>
  remove(): void
}

export function freshHome(extra: Record<string, string> = {}): Home {
  const dir = mkdtempSync(join(tmpdir(), 'service-cli-'))
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k, v]) => v !== undefined && !k.startsWith('SERVICE_') && !k.startsWith('XDG_'),
    ),
  ) as Record<string, string>
  return {
    dir,
    env: {
      ...inherited,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_STATE_HOME: join(dir, 'state'),
      NO_COLOR: '1',
      ...extra,
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Another user (root's tests run the command as `nobody` where permissions matter). */
export interface As {
  uid: number
  gid: number
}

/** Run `service-sdk ...args` to the end. */
export function run(args: string[], env: Record<string, string>, input?: string, as?: As): Promise<Run> {
  const child = start(args, env, as)
  if (input !== undefined) child.stdin?.end(input)
  else child.stdin?.end()
  return finished(child)
}

/** Every process a test file started; those still running when it ends (a failed test) are killed. */
const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

export function start(args: string[], env: Record<string, string>, as?: As): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], ...as })
  children.add(child)
  return child
}

export function finished(child: ChildProcess): Promise<Run> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
}

/** Resolves with the first stdout line that matches. */
export function lineMatching(child: ChildProcess, test: (line: string) => boolean): Promise<string> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (test(line)) resolve(line)
    })
    child.once('close', () => reject(new Error('the process ended before the line appeared')))
  })
}

/** Every secret of a simulator, to check no output carries one. */
export function secretsOf(credentials: {
  teamApiKey: string
  openToken: { value: string }
  apiKey: string
}): string[] {
  return [credentials.teamApiKey, credentials.openToken.value, credentials.apiKey]
}
