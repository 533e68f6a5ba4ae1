import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FOLDERS, SPACES } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { finished, freshHome, type Home, run, start } from './cli.ts'

const sim = useSimulator()
let home: Home
afterEach(() => home?.remove())

const MiB = 1024 * 1024
function files(dir: string, sizes: Record<string, number>): string[] {
  return Object.entries(sizes).map(([name, size]) => {
    const path = join(dir, name)
    writeFileSync(path, Buffer.alloc(size, name.charCodeAt(0)))
    return path
  })
}

interface Row {
  file: string
  size: number
  status: string
  id?: string
  accessUrl?: string
  error?: string
}

describe('service upload', () => {
  it('uploads paths and globs into a folder and prints the saved assets with their links', async () => {
    home = freshHome()
    files(home.dir, { 'a.png': 2048, 'b.png': 4096, 'c.txt': 10 })
    const env = { ...home.env, ...sim.env }
    const result = await run(
      [
        'upload',
        join(home.dir, '*.png'),
        join(home.dir, 'c.txt'),
        '--org',
        SPACES.acme,
        '--folder',
        FOLDERS.acme.campaigns,
        '--json',
      ],
      env,
    )
    expect(result.code).toBe(0)
    const rows = JSON.parse(result.stdout) as Row[]
    expect(rows.map((r) => [r.file.slice(home.dir.length + 1), r.size, r.status])).toEqual([
      ['a.png', 2048, 'saved'],
      ['b.png', 4096, 'saved'],
      ['c.txt', 10, 'saved'],
    ])
    const saved = sim.control.snapshot().materials
    expect(
      saved.map((m) => [m.folderId, m.space, m.size]).sort((a, b) => Number(a[2]) - Number(b[2])),
    ).toEqual([
      [FOLDERS.acme.campaigns, 't:1001', 10],
      [FOLDERS.acme.campaigns, 't:1001', 2048],
      [FOLDERS.acme.campaigns, 't:1001', 4096],
    ])
    for (const row of rows)
      expect(await (await fetch(row.accessUrl as string)).arrayBuffer()).toHaveProperty(
        'byteLength',
        row.size,
      )
  })

  it('exits 1 and names the file that failed; the others are saved', async () => {
    home = freshHome()
    files(home.dir, { 'ok.txt': 100, 'bad.txt': 200 })
    sim.control.faults.inject({
      match: { target: 'oss', op: 'PutObject', path: 'bad.txt' },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      times: Number.POSITIVE_INFINITY,
    })
    const result = await run(['upload', join(home.dir, 'ok.txt'), join(home.dir, 'bad.txt')], {
      ...home.env,
      ...sim.env,
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/ok\.txt.*saved.*1900000000000000001/)
    expect(result.stdout).toMatch(/bad\.txt.*failed.*AccessDenied/)
    expect(result.stderr).toMatch(/1 of 2 files failed/)
  })

  it('refuses a space the caller may not write into, before sending a byte', async () => {
    home = freshHome()
    files(home.dir, { 'a.txt': 10 })
    const result = await run(['upload', join(home.dir, 'a.txt'), '--org', SPACES.stark], {
      ...home.env,
      ...sim.env,
    })
    expect(result.code).toBe(1)
    expect(result.stdout + result.stderr).toMatch(/view|writ/i)
    expect(sim.control.snapshot().materials).toEqual([])
  })

  it.each([
    ['Ctrl-C', 'SIGINT'],
    ['a crash', 'SIGKILL'],
  ] as const)(
    'continues after %s: saved files are not sent again, a started file resumes from its stored parts',
    async (_, signal) => {
      home = freshHome()
      const [small, big] = files(home.dir, { 'first.txt': 1000, 'second.bin': 40 * MiB }) as [string, string]
      // Every part is slow, so the interrupt lands in the middle of the big file.
      const parts = sim.control.faults.inject({
        match: { target: 'oss', op: 'UploadPart' },
        action: { type: 'latency', ms: 400 },
        times: Number.POSITIVE_INFINITY,
      })
      const env = { ...home.env, ...sim.env }
      const args = ['upload', small, big, '--concurrency', '1']
      const first = start(args, env)
      const firstRun = finished(first)
      const checkpoints = join(home.env.XDG_STATE_HOME as string, 'service-sdk', 'checkpoints')
      await until(() => storedParts(checkpoints) >= 2)
      first.kill(signal)
      const interrupted = await firstRun
      if (signal === 'SIGINT') {
        expect(interrupted.code).toBe(130)
        expect(interrupted.stderr).toMatch(/Run the same command again/)
      } else expect(interrupted.signal).toBe('SIGKILL')
      expect(sim.control.snapshot().materials.map((m) => m.name)).toEqual(['first'])
      const sentBefore = parts.hits

      const second = await run([...args, '--json'], env)
      expect(second.code).toBe(0)
      const rows = JSON.parse(second.stdout) as Row[]
      expect(rows.map((r) => r.status)).toEqual(['skipped', 'saved'])
      expect(sim.control.snapshot().materials.map((m) => m.name)).toEqual(['first', 'second'])
      // 5 parts of 8 MiB: the resumed run sent only those the first had not stored.
      expect(parts.hits - sentBefore).toBeLessThan(5)
      expect(parts.hits).toBeGreaterThanOrEqual(5)
      // Done: the journal is cleared, so the same command now uploads again.
      const again = await run([...args.slice(0, 2), '--json'], env)
      expect((JSON.parse(again.stdout) as Row[]).map((r) => r.status)).toEqual(['saved'])
    },
  )
})

describe('service-sdk upload never saves a file twice', () => {
  it('two runs over one folder at once: 3 files make 3 assets; the second run is refused (exit 7)', async () => {
    home = freshHome()
    const dir = join(home.dir, 'shoot')
    mkdirSync(dir)
    files(dir, { 'a.txt': 10, 'b.txt': 20, 'c.txt': 30 })
    // Slow saves: the first run still holds the destination when the second starts.
    sim.control.faults.inject({
      match: { path: 'material-save' },
      action: { type: 'latency', ms: 1500 },
      times: Number.POSITIVE_INFINITY,
    })
    const env = { ...home.env, ...sim.env }
    const args = ['upload', dir, '--org', SPACES.acme, '--json']
    const [one, two] = await Promise.all([run(args, env), run(args, env)])
    expect(
      sim.control
        .snapshot()
        .materials.map((m) => m.name)
        .sort(),
    ).toEqual(['a', 'b', 'c'])
    const [done, refused] = one.code === 0 ? [one, two] : [two, one]
    expect([done.code, refused.code]).toEqual([0, 7])
    expect(JSON.parse(refused.stderr)).toMatchObject({
      error: {
        code: 'busy',
        message: expect.stringMatching(/^Another upload to this destination is running \(pid \d+\)$/),
      },
    })
    expect(refused.stdout).toBe('')
  })

  it('a crash while material-save is in flight, then a run again: one asset, the file reported unknown (exit 6); --save-again saves it again', async () => {
    home = freshHome()
    const [file] = files(home.dir, { 'poster.txt': 100 }) as [string]
    const save = sim.control.faults.inject({
      match: { path: 'material-save' },
      action: { type: 'latency', ms: 1000 },
    })
    const env = { ...home.env, ...sim.env }
    const args = ['upload', file, '--org', SPACES.acme, '--json']
    const first = start(args, env)
    const firstRun = finished(first)
    await until(() => save.hits === 1)
    first.kill('SIGKILL')
    expect((await firstRun).signal).toBe('SIGKILL')
    // The service got the save and makes the asset; the command never heard back.
    await until(() => sim.control.snapshot().materials.length === 1)

    const again = await run(args, env)
    expect(sim.control.snapshot().materials).toHaveLength(1)
    expect(again.code).toBe(6)
    expect(JSON.parse(again.stdout)).toMatchObject([
      {
        status: 'unknown',
        error: 'save outcome unknown: check the space; run again with --save-again to save it again',
      },
    ])
    expect(again.stderr).toMatch(/1 of 1 files: the save's outcome is unknown/)

    const saveAgain = await run([...args, '--save-again'], env)
    expect(saveAgain.code).toBe(0)
    expect(JSON.parse(saveAgain.stdout)).toMatchObject([{ status: 'saved' }])
    expect(sim.control.snapshot().materials).toHaveLength(2)
  })
})

function storedParts(dir: string): number {
  try {
    return Math.max(
      0,
      ...readdirSync(dir).map(
        (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { parts?: unknown[] }).parts?.length ?? 0,
      ),
    )
  } catch {
    return 0
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50))
}
