import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { olderNodeOrSkip } from '@service-sdk/testkit'
import { describe, expect, test } from 'vitest'

// The built package on the machine's older Node (below what its SQLite store needs): the store
// refuses at creation with one typed error that says what to do, instead of failing later.

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url))
const node = olderNodeOrSkip()
if (node && !existsSync(DIST))
  throw new Error(`${DIST} is missing: build the webhooks package first (pnpm build)`)

describe.skipIf(!node)(`sqliteStore on Node ${node?.version ?? '(none)'}`, () => {
  test('refuses with a WebhookError naming the Node it needs and the alternative', () => {
    const script = `
      const { sqliteStore, WebhookError } = await import(${JSON.stringify(DIST)})
      try { sqliteStore('/nonexistent/dir/never-created.db') ; console.log('created') }
      catch (e) { console.log(JSON.stringify({ isWebhookError: WebhookError.isInstance(e), code: e.code, message: e.message })) }`
    const out = execFileSync(node?.path as string, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    expect(JSON.parse(out)).toEqual({
      isWebhookError: true,
      code: 'unsupported_runtime',
      message: `sqliteStore needs node:sqlite, built into Node 22.13 and later (23.4 on Node 23); this is Node ${node?.version}. Upgrade Node, or use postgresStore.`,
    })
  })
})
