// service-webhooks-worker as a process: it stays up while idle, and SIGTERM or SIGINT stops
// claiming, lets the handler in flight finish, and exits 0.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-worker-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each(['SIGTERM', 'SIGINT'] as const)('service-webhooks-worker on %s', (signal) => {
  it('lets the handler in flight finish, then exits 0', async () => {
    const db = join(dir, `${signal}.db`)
    const ledger = join(dir, `${signal}.log`)
    const store = sqliteStore(db)
    await store.insert({
      key: 'evt-1',
      eventType: 'MATERIAL_DELETED',
      body: '{"eventId":"evt-1","eventType":"MATERIAL_DELETED"}',
      receivedAt: 1,
    })
    await store.close()
    const handlers = join(dir, `${signal}-handlers.ts`)
    writeFileSync(
      handlers,
      `import { appendFileSync } from 'node:fs'
      import { sqliteStore } from ${JSON.stringify(join(import.meta.dirname, '../src/stores/sqlite/sqlite.ts'))}
      export const store = sqliteStore(${JSON.stringify(db)})
      export const handlers = {
        '*': async (_event, { key }) => {
          appendFileSync(${JSON.stringify(ledger)}, 'start ' + key + '\\n')
          await new Promise((resolve) => setTimeout(resolve, 500))
          appendFileSync(${JSON.stringify(ledger)}, 'end ' + key + '\\n')
        },
      }`,
    )
    const cli = join(import.meta.dirname, '../src/worker-cli.ts')
    const child = spawn(process.execPath, ['--conditions=@service-sdk/source', cli, handlers], {
      stdio: 'ignore',
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const read = () => {
      try {
        return readFileSync(ledger, 'utf8')
      } catch {
        return ''
      }
    }
    await expect.poll(read, { timeout: 15_000 }).toContain('start evt-1')
    expect(child.exitCode).toBeNull()
    child.kill(signal)
    expect(await exited).toBe(0)
    expect(read()).toBe('start evt-1\nend evt-1\n')
    const after = sqliteStore(db)
    expect((await after.get('evt-1'))?.status).toBe('done')
    await after.close()
  })
})
