import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { threadFound } from './sqlite-channel.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-channel-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the SQLite store thread', () => {
  it('starts in a process run with Node options a thread refuses (--expose-gc)', () => {
    const store = pathToFileURL(join(import.meta.dirname, 'sqlite.ts')).href
    const script = `
      const { sqliteStore } = await import(${JSON.stringify(store)})
      const s = sqliteStore(${JSON.stringify(join(dir, 'gc.db'))})
      console.log(await s.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 }))
      await s.close()`
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--conditions=@service-sdk/source', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 30_000 },
    )
    expect(run.stderr).not.toContain('ERR_WORKER_INVALID_EXEC_ARGV')
    expect(run.stdout.trim()).toBe('inserted')
  })
})

describe('threadFound', () => {
  it('is true only for a file URL of an existing file', () => {
    expect(threadFound(pathToFileURL(join(import.meta.dirname, 'sqlite-thread.ts')))).toBe(true)
    expect(threadFound(pathToFileURL(join(dir, 'missing.mjs')))).toBe(false)
    expect(threadFound(new URL('https://example.com/sqlite-thread.mjs'))).toBe(false)
  })

  it('is false, without throwing, for the URL-like object webpack puts in its place', () => {
    // What a webpack bundle (Next.js with --webpack) hands over: a relative web path in an
    // object shaped like a URL, which fs.existsSync refuses with ERR_INVALID_ARG_TYPE.
    const relative = {
      href: '/_next/static/media/sqlite-thread.f747af48.mjs',
      protocol: '',
      toString: () => '/_next/…',
    }
    expect(threadFound(relative as unknown as URL)).toBe(false)
  })
})
