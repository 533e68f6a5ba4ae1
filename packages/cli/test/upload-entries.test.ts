import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { type As, freshHome, type Home, run } from './cli.ts'

const sim = useSimulator()
let home: Home
let socket: Server | undefined
afterEach(async () => {
  await new Promise((resolve) => (socket ? socket.close(resolve) : resolve(undefined)))
  socket = undefined
  home?.remove()
})

interface Row {
  file: string
  status: string
  error?: string
}

/** As root, the command runs as `nobody`, for whom a file or folder of mode 000 is unreadable. */
function unprivileged(dir: string): As | undefined {
  if (process.getuid?.() !== 0) return undefined
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }))
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }))
  execFileSync('chown', ['-R', `${uid}:${gid}`, dir])
  return { uid, gid }
}

describe('service-sdk upload <dir> with entries it cannot read', () => {
  it('names each unreadable entry and why, skips it, uploads the rest, and exits 5', async () => {
    home = freshHome()
    const dir = join(home.dir, 'shoot')
    mkdirSync(join(dir, 'locked'), { recursive: true })
    writeFileSync(join(dir, 'a.txt'), 'a')
    writeFileSync(join(dir, 'b.txt'), 'bb')
    writeFileSync(join(dir, 'locked', 'inside.txt'), 'hidden by the folder')
    writeFileSync(join(dir, 'secret.txt'), 'no read permission')
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'dangling.txt'))
    execFileSync('mkfifo', [join(dir, 'pipe')])
    socket = createServer()
    await new Promise<void>((resolve) => socket?.listen(join(dir, 'sock'), resolve))
    const as = unprivileged(home.dir)
    chmodSync(join(dir, 'secret.txt'), 0o000)
    chmodSync(join(dir, 'locked'), 0o000)

    const result = await run(['upload', dir, '--json'], { ...home.env, ...sim.env }, undefined, as)

    expect(result.code).toBe(5)
    const rows = (JSON.parse(result.stdout) as Row[]).map((r) => ({
      file: r.file.slice(dir.length + 1),
      status: r.status,
      error: r.error,
    }))
    expect(rows).toEqual([
      { file: 'a.txt', status: 'saved', error: undefined },
      { file: 'b.txt', status: 'saved', error: undefined },
      {
        file: 'dangling.txt',
        status: 'unreadable',
        error: 'a symbolic link to something that does not exist',
      },
      { file: 'locked', status: 'unreadable', error: 'a folder that cannot be read (EACCES)' },
      { file: 'pipe', status: 'unreadable', error: 'a named pipe (FIFO), not a file' },
      { file: 'secret.txt', status: 'unreadable', error: 'permission denied (EACCES)' },
      { file: 'sock', status: 'unreadable', error: 'a socket, not a file' },
    ])
    expect(result.stderr).toContain(`${join(dir, 'pipe')}: a named pipe (FIFO), not a file; skipped`)
    expect(result.stderr).toMatch(/5 entries were skipped/)
    expect(
      sim.control
        .snapshot()
        .materials.map((m) => m.name)
        .sort(),
    ).toEqual(['a', 'b'])
  })

  it('a folder holding only a FIFO uploads nothing, says why, and exits 5 (not 0)', async () => {
    home = freshHome()
    const dir = join(home.dir, 'only-a-pipe')
    mkdirSync(dir)
    execFileSync('mkfifo', [join(dir, 'pipe')])
    const result = await run(['upload', dir], { ...home.env, ...sim.env })
    expect(result.code).toBe(5)
    expect(result.stdout).toMatch(/pipe.*unreadable.*a named pipe \(FIFO\), not a file/)
    expect(sim.control.snapshot().materials).toEqual([])
  })

  it('a glob reports a dangling link it matches, and uploads the files it matches', async () => {
    home = freshHome()
    writeFileSync(join(home.dir, 'one.png'), 'png')
    symlinkSync(join(home.dir, 'nowhere.png'), join(home.dir, 'two.png'))
    writeFileSync(join(home.dir, 'three.txt'), 'not matched')
    const result = await run(['upload', join(home.dir, '*.png'), '--json'], { ...home.env, ...sim.env })
    expect(result.code).toBe(5)
    expect(
      (JSON.parse(result.stdout) as Row[]).map((r) => [r.file.slice(home.dir.length + 1), r.status]),
    ).toEqual([
      ['one.png', 'saved'],
      ['two.png', 'unreadable'],
    ])
  })
})
