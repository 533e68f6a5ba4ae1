import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** Where `/docs` stands: built, being built (since when), failed (with the build's output), or unbuildable. */
export type DocsState =
  | { kind: 'ready' }
  | { kind: 'building'; since: number }
  | { kind: 'failed'; output: string }
  | { kind: 'unavailable' }

/** The site `/docs` serves: `dir`, built on the first request when it is not there. */
export interface DocsSite {
  readonly dir: string
  /** The state now; a request for a site not built yet starts its build (once). */
  state(): DocsState
  /** Stops a build in progress (the demo's shutdown). */
  stop(): void
}

/** How the site is built: `node scripts/docs.ts --out <dir>` from the repository. */
export interface DocsBuild {
  command: string
  args: readonly string[]
  cwd: string
}

/** The build of the repository's `pnpm run docs`, into `dir`; `undefined` outside the repository. */
export function repositoryDocsBuild(root: string, dir: string): DocsBuild | undefined {
  const script = join(root, 'scripts', 'docs.ts')
  return existsSync(script)
    ? { command: process.execPath, args: [script, '--out', dir], cwd: root }
    : undefined
}

/** A site in `dir`, built by `build` on the first request when `dir` has no index.html. */
export function docsSite(dir: string, build: DocsBuild | undefined): DocsSite {
  let child: ChildProcess | undefined
  let state: DocsState = { kind: 'unavailable' }
  const start = (how: DocsBuild) => {
    mkdirSync(dir, { recursive: true })
    let output = ''
    state = { kind: 'building', since: Date.now() }
    child = spawn(how.command, [...how.args], { cwd: how.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    child.on('error', (error) => {
      state = { kind: 'failed', output: error.message }
    })
    child.on('close', (code) => {
      child = undefined
      if (state.kind !== 'building') return
      state = code === 0 && built() ? { kind: 'ready' } : { kind: 'failed', output }
    })
  }
  const built = () => existsSync(join(dir, 'index.html'))
  return {
    dir,
    state() {
      if (state.kind === 'building' || state.kind === 'failed') return state
      if (built()) return { kind: 'ready' }
      if (build) start(build)
      return state
    },
    stop() {
      child?.kill('SIGTERM')
    },
  }
}

/** The page shown while the site builds: it reloads itself until the site is there. */
export function buildingPage(since: number): string {
  const seconds = Math.round((Date.now() - since) / 1000)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Building the docs…</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.5rem}a{color:#4f46e5}</style>
</head><body><h1>Building the docs…</h1>
<p>The API reference and the rendered spec are built on the first visit (<code>pnpm run docs</code>), which takes about a minute on a laptop. Started ${seconds} s ago; this page reloads itself until they are ready.</p>
<p><a href="/">← Back to the demo</a></p></body></html>
`
}
