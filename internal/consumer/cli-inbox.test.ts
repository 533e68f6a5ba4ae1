import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { npm, packAll } from './pack.ts'

// `service-sdk inbox` as a user gets it: the packed tarballs installed with plain npm into a fresh
// project, run against a SQLite inbox and a PostgreSQL schema that a receiver from the same
// tarballs filled (a script in that project): every command, with --json parsed, and the errors
// for a wrong path or URL.

const PACKAGES = [
  '@service-sdk/cli',
  '@service-sdk/core',
  '@service-sdk/open',
  '@service-sdk/simulator',
  '@service-sdk/team',
  '@service-sdk/webhooks',
]
const LONG_ID = '1951438207513255936'
const work = mkdtempSync(join(tmpdir(), 'service-sdk-cli-inbox-'))
const project = join(work, 'project')
const bin = join(project, 'node_modules', '.bin', 'service-sdk')
const postgres = await postgresOrSkip()
const schema = `cli_inbox_${randomBytes(5).toString('hex')}`
/** A password in the URL (trust auth ignores it): no output may show it. */
const PASSWORD = `pw${randomBytes(8).toString('hex')}`
const pgUrl = (() => {
  const url = new URL(postgres.url)
  url.password = PASSWORD
  return url.href
})()

// The receiver that fills an inbox, from the installed packages: events done, dead (their handler
// throws), and one pending (stored by an ingest-only receiver).
const MAKE_INBOX = `
import { createWebhookReceiver, postgresStore, sqliteStore } from '@service-sdk/webhooks'
const [where, schema] = process.argv.slice(2)
const store = () => (where.startsWith('postgres') ? postgresStore(where, { schema }) : sqliteStore(where))
const post = (receiver, body) =>
  receiver.fetch(new Request('http://inbox.test/webhooks/' + process.env.WEBHOOK_TOKEN, { method: 'POST', body }))
const receiver = createWebhookReceiver({
  token: process.env.WEBHOOK_TOKEN,
  store: store(),
  processing: { retry: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 } },
})
receiver.onAny(async (_event, { key }) => {
  if (key.startsWith('dead')) throw new Error('handler refused ' + key)
})
const bodies = [
  '{"eventId":${LONG_ID},"eventType":"MATERIAL_DELETED","payload":{"materialIds":[${LONG_ID}]}}',
  ...['a', 'b', 'c'].map((k) => JSON.stringify({ eventId: 'added-' + k, eventType: 'MATERIAL_ADDED_TO_FOLDER', payload: {} })),
  ...['dead-1', 'dead-2'].map((k) => JSON.stringify({ eventId: k, eventType: 'MATERIAL_DELETED', payload: {} })),
  JSON.stringify({ eventId: 'evil-\\u001b[2J', eventType: 'MATERIAL_DELETED', payload: {} }),
]
for (const body of bodies) if ((await post(receiver, body)).status !== 200) throw new Error('not stored: ' + body)
await receiver.drain()
await receiver.close()
const ingest = createWebhookReceiver({ token: process.env.WEBHOOK_TOKEN, store: store(), processing: false })
await post(ingest, JSON.stringify({ eventId: 'waiting', eventType: 'MATERIAL_DELETED', payload: {} }))
await ingest.close()
`

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], home: string): Promise<Ended> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(SERVICE_|XDG_|npm_)/.test(k)),
  )
  const child = spawn(command, args, {
    cwd: project,
    env: {
      ...env,
      HOME: home,
      NO_COLOR: '1',
      WEBHOOK_TOKEN: 'ctWzqV3cJGQm9BqzJ2nJ1pQvE0cIxHh0',
      PATH: `${join(process.execPath, '..')}:${process.env.PATH}`,
    },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => (stdout += c))
  child.stderr.on('data', (c) => (stderr += c))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

beforeAll(() => {
  const packed = packAll(join(work, 'packs'), PACKAGES)
  mkdirSync(project)
  const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`]))
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fresh', private: true, type: 'module', dependencies }),
  )
  npm(['install'], project)
  writeFileSync(join(project, 'make-inbox.mjs'), MAKE_INBOX)
}, 300_000)

afterAll(async () => {
  if (postgres.available) {
    const admin = new pg.Client({ connectionString: postgres.url })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.end()
  }
  if (!process.env.KEEP_CONSUMER) rmSync(work, { recursive: true, force: true })
})

const inboxes: Array<[string, () => string[]]> = [
  ['a SQLite inbox', () => ['--store', join(work, 'inbox.sqlite')]],
]
if (postgres.available) inboxes.push(['a PostgreSQL schema', () => ['--store', pgUrl, '--schema', schema]])

describe.each(inboxes)('the packed `service-sdk inbox` on %s made by a real receiver', (_, where) => {
  const home = mkdtempSync(join(work, 'home-'))
  const cli = (...args: string[]) => run(bin, ['inbox', ...args, ...where()], home)
  const json = async (...args: string[]) => {
    const ended = await cli(...args, '--json')
    expect([args.join(' '), ended.code, ended.stderr]).toEqual([args.join(' '), 0, ''])
    return JSON.parse(ended.stdout)
  }

  beforeAll(async () => {
    const made = await run(process.execPath, ['make-inbox.mjs', where()[1]!, schema], home)
    expect(made).toMatchObject({ code: 0, stderr: '' })
  }, 60_000)

  test('counts, list (filters, pages), show with every digit, as tables and as JSON', async () => {
    expect(await json('counts')).toMatchObject({
      pending: 1,
      processing: 0,
      done: 5,
      dead: 2,
      oldestPendingAt: expect.any(Number),
      oldestPendingAgeMs: expect.any(Number),
    })
    const dead = await json('list', '--status', 'dead')
    expect(dead.events.map((e: { key: string }) => e.key)).toEqual(['dead-2', 'dead-1'])
    expect(dead.events[0]).toMatchObject({
      status: 'dead',
      attempts: 1,
      lastError: expect.stringContaining('handler refused'),
    })
    expect(dead.events[0].body).toBeUndefined()
    const added = await json('list', '--type', 'MATERIAL_ADDED_TO_FOLDER', '--oldest')
    expect(added.events.map((e: { key: string }) => e.key)).toEqual(['added-a', 'added-b', 'added-c'])
    // Page by page, every event once.
    const keys: string[] = []
    let cursor: string | null = null
    do {
      const page: { events: Array<{ key: string }>; next: string | null } = await json(
        'list',
        '--limit',
        '3',
        ...(cursor ? ['--cursor', cursor] : []),
      )
      keys.push(...page.events.map((e) => e.key))
      cursor = page.next
    } while (cursor)
    expect(keys).toHaveLength(8)
    expect(new Set(keys).size).toBe(8)
    // The body as stored: the 19-digit id stays exact in the JSON text.
    const shown = await cli('show', LONG_ID, '--json')
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(`"eventId":${LONG_ID}`)
    expect(JSON.parse(shown.stdout)).toMatchObject({
      key: LONG_ID,
      status: 'done',
      body: { eventType: 'MATERIAL_DELETED' },
    })
    // For people: a table; a key with an escape sequence is shown escaped, never sent to the terminal.
    const table = await cli('list')
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/│ key\s+│ type\s+│ status/)
    expect(table.stdout).toContain('"evil-\\u001b[2J"')
    expect(table.stdout).not.toContain('\u001b')
    const text = await cli('show', LONG_ID)
    expect(text.stdout).toContain(`"eventId":${LONG_ID}`)
  })

  test('requeue (keys, --all-dead), replay, prune, each answering how many it changed', async () => {
    expect(await json('requeue', 'dead-1', 'added-a')).toEqual({ requeued: 1 })
    expect((await json('show', 'dead-1')).status).toBe('pending')
    expect((await json('show', 'added-a')).status).toBe('done')
    expect(await json('requeue', '--all-dead')).toEqual({ requeued: 1 })
    expect(await json('replay', 'added-b', 'dead-2')).toEqual({ replayed: 1 })
    expect(await json('show', 'added-b')).toMatchObject({ status: 'pending', attempts: 0 })
    expect(await json('counts')).toMatchObject({ pending: 4, done: 4, dead: 0 })
    expect(await json('prune', '--older-than', '0s')).toEqual({ pruned: 4 })
    expect(await json('counts')).toMatchObject({ pending: 4, done: 0, dead: 0 })
    const people = await cli('prune', '--older-than', '7d')
    expect([people.code, people.stdout]).toEqual([0, 'Pruned 0 done events.\n'])
  })

  test('usage mistakes: one line and a hint, exit 2, no stack', async () => {
    const none = await cli('requeue')
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/^Error: Name the keys to requeue, or --all-dead\nHint: /)
    const badDuration = await cli('prune', '--older-than', 'a week')
    expect(badDuration.code).toBe(2)
    expect(badDuration.stderr).not.toContain('    at ')
  })
})

describe('`service-sdk inbox` pointed at something that is not an inbox', () => {
  const home = mkdtempSync(join(work, 'home-wrong-'))
  const cli = (...args: string[]) => run(bin, ['inbox', ...args], home)

  test('a missing file, a file that is not SQLite, a missing default inbox: exit 2, one line, no stack', async () => {
    const missing = await cli('counts', '--store', join(work, 'nowhere.sqlite'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^Error: No inbox at .*nowhere\.sqlite: the file does not exist\nHint: /)
    writeFileSync(join(work, 'notes.txt'), 'not a database')
    const notSqlite = await cli('list', '--store', join(work, 'notes.txt'), '--json')
    expect(notSqlite.code).toBe(2)
    expect(JSON.parse(notSqlite.stderr)).toMatchObject({
      error: { code: 'usage', message: expect.stringContaining('is not a SQLite database') },
    })
    const noListen = await cli('counts')
    expect(noListen.code).toBe(2)
    expect(noListen.stderr).toContain('`service-sdk listen` makes this inbox')
    for (const ended of [missing, notSqlite, noListen]) expect(ended.stderr).not.toContain('    at ')
  })

  test.skipIf(!postgres.available)(
    'an unreachable database or a missing schema: the URL without its password',
    async () => {
      const closedPort = new URL(pgUrl)
      closedPort.port = '1'
      const unreachable = await cli('counts', '--store', closedPort.href)
      expect(unreachable.code).toBe(4)
      expect(unreachable.stderr).toMatch(
        /^Error: Cannot reach the database at postgres:\/\/127\.0\.0\.1:1\/test \(ECONNREFUSED\)/,
      )
      const noSchema = await cli('list', '--store', pgUrl, '--schema', `${schema}_missing`)
      expect(noSchema.code).toBe(2)
      expect(noSchema.stderr).toContain('No inbox table')
      for (const ended of [unreachable, noSchema]) {
        expect(ended.stderr).not.toContain(PASSWORD)
        expect(ended.stderr).not.toContain('    at ')
      }
      // Nothing was created by looking.
      const admin = new pg.Client({ connectionString: postgres.url })
      await admin.connect()
      const { rows } = await admin.query('SELECT to_regnamespace($1) AS found', [`${schema}_missing`])
      await admin.end()
      expect(rows[0].found).toBeNull()
    },
  )
})
