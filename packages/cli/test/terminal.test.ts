import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SPACES } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { requiredInCi } from '@service-sdk/testkit'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, freshHome } from './cli.ts'

const sim = useSimulator()
const home = freshHome()
const tmuxFound = (() => {
  try {
    execFileSync('tmux', ['-V'])
    return true
  } catch {
    requiredInCi(
      'tmux',
      'the interactive progress display is tested in a real terminal; apt-get install -y tmux',
    )
    return false
  }
})()
// A server of our own, so no one else's tmux session is touched.
const socket = `service-cli-test-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' })
afterAll(() => {
  if (tmuxFound) {
    try {
      tmux('kill-server')
    } catch {}
  }
  home.remove()
})

const screen = () => tmux('capture-pane', '-p', '-t', 'upload')
async function until(what: string, test: (text: string) => boolean): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const text = screen()
    if (test(text)) return text
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`The screen never showed ${what}:\n${screen()}`)
}

/** Runs `service-sdk upload ...args` in a tmux pane of its own (session "upload"), then waits. */
function startInTerminal(args: string[]): void {
  const env = Object.entries({ ...home.env, ...sim.env, TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${v}`)
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`
  const script = join(home.dir, 'run.sh')
  writeFileSync(
    script,
    `#!/bin/sh\nenv ${env.map(quote).join(' ')} ${quote(process.execPath)} ${quote(BIN)} upload ${args.map(quote).join(' ')}; echo "exit=$?"; sleep 60\n`,
  )
  tmux('new-session', '-d', '-s', 'upload', '-x', '160', '-y', '30', `sh ${script}`)
}

describe.skipIf(!tmuxFound)('service upload in a terminal', () => {
  it('shows per-file and overall progress (bytes, rate, ETA), pauses on p, and ends with the table of links', async () => {
    const big = join(home.dir, 'launch.mov')
    writeFileSync(big, Buffer.alloc(32 * 1024 * 1024, 7))
    const small = join(home.dir, 'poster.png')
    writeFileSync(small, Buffer.alloc(3000, 1))
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 700 },
      times: Number.POSITIVE_INFINITY,
    })
    startInTerminal([big, small, '--org', SPACES.acme, '--concurrency', '1'])

    const live = await until('the progress bars under way', (t) => /launch\.mov\s.*\s[1-9]\d*% \|/.test(t))
    expect(live).toMatch(/total \(0\/2 files\)\s.*\d+%/)
    expect(live).toMatch(
      /launch\.mov\s.*\d+(\.\d)? [KM]iB\/32\.0 MiB \| (\d+(\.\d)? [KM]iB\/s|…) \| ETA \s*(\d+[hm] )*\d+s/,
    )

    tmux('send-keys', '-t', 'upload', 'p')
    await until('the pause', (t) => t.includes('Paused'))
    // Paused: the file in flight finishes, the next one does not start.
    await until('the first file saved', (t) => t.includes('✓ launch.mov'))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(sim.control.snapshot().materials.map((m) => m.name)).toEqual(['launch'])
    expect(screen()).not.toMatch(/poster\.png/)
    tmux('send-keys', '-t', 'upload', 'p')
    await until('the resumption', (t) => t.includes('Resumed'))

    const end = await until('the summary', (t) => t.includes('exit='))
    expect(end).toMatch(/✓ launch\.mov/)
    expect(end).toMatch(/✓ poster\.png/)
    expect(end).toMatch(
      /poster\.png\s+│ 2\.9 KiB\s+│ saved\s+│ 19\d{17} │ http:\/\/127\.0\.0\.1:\d+\/files\//,
    )
    expect(end).toContain('exit=0')
  }, 120_000)
  it('with --json, a terminal gets no progress: only the JSON lines', async () => {
    try {
      tmux('kill-session', '-t', 'upload') // the test before leaves its pane open
    } catch {}
    const file = join(home.dir, 'quiet.mov')
    writeFileSync(file, Buffer.alloc(12 * 1024 * 1024, 3))
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      // Parts go up in parallel, so this is about how long the run takes: long enough for many
      // samples of the screen even on a loaded machine (500 ms gave 8 there).
      action: { type: 'latency', ms: 2500 },
      times: Number.POSITIVE_INFINITY,
    })
    startInTerminal([file, '--org', SPACES.acme, '--json'])
    const seen: string[] = []
    await until('the end of the run', (t) => {
      seen.push(t)
      return t.includes('exit=')
    })
    // Sampled every 100 ms over a run of several seconds: a bar drawn at any point would show.
    expect(seen.length).toBeGreaterThan(10)
    expect(seen.filter((t) => /ETA|% \||total \(/.test(t))).toEqual([])
    const end = seen.at(-1)!
    expect(end).toContain('exit=0')
    expect(end).toMatch(/"name":\s*"quiet"/)
  }, 120_000)
})
