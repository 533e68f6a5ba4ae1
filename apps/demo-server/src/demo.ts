// `pnpm demo` (the repository's root script): build what the demo needs, then run it in this very
// process. Without a terminal, pnpm relays a signal sent to its process group to this script's own
// group; one Node process owns that signal from the first moment. A shell chaining
// `turbo run build && pnpm … demo` held a SIGINT that arrived during the build until turbo exited,
// and when turbo exited 0 it went on to start the server, which then ran on with nobody to stop it.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..', '..')
let interrupted: NodeJS.Signals | undefined

// The build is quiet: one line while it runs, its output (turbo's and the tools') only if it fails.
console.log('[demo] building the packages and the page…')
const started = Date.now()
let output = ''
const code = await new Promise<number>((resolve) => {
  const build = spawn(
    'turbo',
    ['run', 'build', '--filter=@service-sdk/demo-server...', '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const keep = (chunk: Buffer) => {
    output += chunk.toString()
  }
  build.stdout.on('data', keep)
  build.stderr.on('data', keep)
  const stop = (signal: NodeJS.Signals) => {
    interrupted = signal
    build.kill(signal)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  build.on('error', (error) => {
    console.error('\nThe demo could not build:', error.message, '\n')
    resolve(1)
  })
  build.on('close', (exitCode) => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    resolve(exitCode ?? 1)
  })
})

if (interrupted) process.exit(interrupted === 'SIGINT' ? 130 : 143)
if (code !== 0) {
  process.stderr.write(output)
  console.error(`\n[demo] the build failed (exit ${code}): its output is above.`)
  process.exit(code)
}
console.log(`[demo] built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
// main.ts takes the signals from its first line (a signal in between ends this process at once,
// Node's default, before anything has started).
await import('./main.ts')
