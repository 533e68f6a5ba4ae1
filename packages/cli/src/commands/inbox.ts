import type { EventStatus, StoredEvent, WebhookStore } from '@service-sdk/webhooks'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { type Context, contextOf } from '../context.ts'
import { CliError } from '../errors.ts'
import { wholeNumber } from '../flags.ts'
import { pc } from '../output.ts'
import { type InboxLocation, listenInbox, openInbox } from './inbox-store.ts'

const STATUSES = ['pending', 'processing', 'done', 'dead'] as const

/** `7d`, `12h`, `30m`, `45s`, `500ms` as milliseconds. */
export const duration = (value: string): number => {
  const [, n, unit] = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(value.trim()) ?? []
  const ms = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit ?? ''] ?? Number.NaN
  const total = Number(n) * ms
  if (!Number.isFinite(total) || total > Number.MAX_SAFE_INTEGER)
    throw new InvalidArgumentError('a duration such as 7d, 12h, 30m, 45s or 500ms')
  return Math.round(total)
}

/** A time as epoch ms: digits, or a date and time (UTC unless it says otherwise). */
const time = (value: string): number => {
  const ms = /^\d+$/.test(value)
    ? Number(value)
    : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`)
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new InvalidArgumentError('a time, e.g. 2025-07-31T08:30 (UTC)')
  return ms
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what this looks for
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/

/**
 * A string as a terminal may show it: control characters (an escape sequence in a key could
 * rewrite the screen) and lone surrogates as their JSON escapes.
 */
function printable(text: string, max = Number.POSITIVE_INFINITY): string {
  const shown = text.isWellFormed() && !CONTROLS.test(text) ? text : JSON.stringify(text)
  return shown.length > max ? `${shown.slice(0, max)}…` : shown
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** An event as a line of the list: no body. */
function summary(e: StoredEvent) {
  const { body: _body, ...rest } = e
  return rest
}

export function inboxCommand(program: Command): void {
  const inbox = program
    .command('inbox')
    .description('see and steer a webhook inbox: list, show, requeue, replay, prune, counts')
    .option(
      '--store <file|url>',
      `a SQLite inbox file or a postgres:// URL (default: the listen inbox, ${listenInbox()})`,
    )
    .option('--schema <name>', 'the PostgreSQL schema of the inbox table')
    .option('--table <name>', 'the inbox table (default webhook_events)')
    .addHelpText(
      'after',
      `
Works on any inbox a receiver made: the one \`service-sdk listen\` keeps, a sqliteStore file, or a
postgresStore table. Nothing is created: a path or table that is not an inbox is an error.

Examples:
  service-sdk inbox counts
  service-sdk inbox list --status dead
  service-sdk inbox show 1951438207513255936 --json
  service-sdk inbox requeue --all-dead --store ./webhooks.sqlite
  service-sdk inbox replay 1951438207513255936 --store postgres://app@db/app --schema webhooks
  service-sdk inbox prune --older-than 7d`,
    )
  for (const add of [listCommand, showCommand, requeueCommand, replayCommand, pruneCommand, countsCommand])
    add(inbox)
}

/** `inbox list`: a page of events. */
function listCommand(inbox: Command): void {
  inbox
    .command('list')
    .description('events, newest first, a page at a time (no bodies: `inbox show` has them)')
    .addOption(new Option('--status <status>', 'only events in this status').choices(STATUSES))
    .option('--type <eventType>', 'only events of this type')
    .option('--key <orderKey>', 'only events with this order key')
    .option('--from <time>', 'start at this time (UTC; newest first: at or before it)', time)
    .option('--oldest', 'oldest first')
    .option('--limit <n>', 'events a page, 1 to 1000', wholeNumber(1, 1000), 50)
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
    .action((options, command: Command) =>
      withInbox(command, async (ctx, store) => {
        const page = await store.page!({
          ...(options.status ? { status: options.status as EventStatus } : {}),
          ...(options.type === undefined ? {} : { eventType: options.type }),
          ...(options.key === undefined ? {} : { orderKey: options.key }),
          ...(options.from === undefined ? {} : { from: options.from }),
          ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
          order: options.oldest ? 'oldest' : 'newest',
          limit: options.limit,
        })
        const events = page.events.map(summary)
        if (ctx.out.json)
          return ctx.out.result({ events, next: page.next ?? null, partial: page.partial }, () => '')
        ctx.out.table(
          events.map((e) => ({
            key: printable(e.key, 40),
            type: printable(e.eventType, 32),
            status: e.status,
            attempts: e.attempts,
            received: iso(e.receivedAt),
            'last error': e.lastError === null ? null : printable(e.lastError, 60),
          })),
          ['key', 'type', 'status', 'attempts', 'received', 'last error'],
        )
        if (page.next)
          ctx.out.note(
            pc.dim(`${page.partial ? 'Searched part of the inbox; ' : ''}more: --cursor ${page.next}`),
          )
      }),
    )
}

/** `inbox show <key>`: one event, its body as received. */
function showCommand(inbox: Command): void {
  inbox
    .command('show <key>')
    .description('one event: its facts and its body exactly as received (every digit of its ids)')
    .action((key: string, _options, command: Command) =>
      withInbox(command, async (ctx, store) => {
        const event = await store.get(key)
        if (!event)
          throw new CliError(
            'failed',
            `No event has the key ${printable(key, 80)}`,
            '`inbox list` shows the keys',
          )
        const { body, ...facts } = event
        if (ctx.out.json) {
          // The body as stored, so ids keep every digit.
          process.stdout.write(`${JSON.stringify(facts).slice(0, -1)},"body":${body}}\n`)
          return
        }
        const lines = [
          `key          ${printable(facts.key)}`,
          `type         ${printable(facts.eventType)}`,
          `status       ${facts.status}`,
          `attempts     ${facts.attempts}`,
          `order key    ${facts.orderKey === null ? '-' : printable(facts.orderKey)}`,
          `received     ${iso(facts.receivedAt)}`,
          `next attempt ${iso(facts.nextAttemptAt)}`,
          `finished     ${iso(facts.finishedAt) ?? '-'}`,
          `last error   ${facts.lastError === null ? '-' : printable(facts.lastError)}`,
          '',
          printable(body),
        ]
        process.stdout.write(`${lines.join('\n')}\n`)
      }),
    )
}

/** `inbox requeue`: dead events run again. */
function requeueCommand(inbox: Command): void {
  inbox
    .command('requeue [keys...]')
    .description('run dead events again (attempts from 1): these keys, or every dead one')
    .option('--all-dead', 'every dead event')
    .action((keys: string[], options: { allDead?: boolean }, command: Command) =>
      withInbox(command, async (ctx, store) => {
        if (keys.length === 0 && !options.allDead)
          throw new CliError(
            'usage',
            'Name the keys to requeue, or --all-dead',
            '`inbox list --status dead` shows them',
          )
        if (keys.length > 0 && options.allDead)
          throw new CliError('usage', 'Give keys or --all-dead, not both')
        const requeued = await store.requeue(
          options.allDead ? { now: Date.now() } : { keys, now: Date.now(), status: 'dead' },
        )
        ctx.out.result({ requeued }, () => changed('Requeued', requeued, keys.length, 'dead'))
      }),
    )
}

/** `inbox replay`: done events run again. */
function replayCommand(inbox: Command): void {
  inbox
    .command('replay <keys...>')
    .description('run done events again: the same stored event (same key and body), not a copy')
    .action((keys: string[], _options, command: Command) =>
      withInbox(command, async (ctx, store) => {
        const replayed = await store.requeue({ keys, now: Date.now(), status: 'done' })
        ctx.out.result({ replayed }, () => changed('Replayed', replayed, keys.length, 'done'))
      }),
    )
}

/** `inbox prune`: finished events deleted. */
function pruneCommand(inbox: Command): void {
  inbox
    .command('prune')
    .description('delete done (or dead) events that finished before a time')
    .requiredOption('--older-than <duration>', 'finished more than this long ago: 7d, 12h, 30m', duration)
    .addOption(new Option('--status <status>', 'which events').choices(['done', 'dead']).default('done'))
    .action((options: { olderThan: number; status: 'done' | 'dead' }, command: Command) =>
      withInbox(command, async (ctx, store) => {
        const pruned = await store.prune({ before: Date.now() - options.olderThan, status: options.status })
        ctx.out.result(
          { pruned },
          () => `Pruned ${pruned} ${options.status} event${pruned === 1 ? '' : 's'}.`,
        )
      }),
    )
}

/** `inbox counts`: events by status, the oldest pending one's wait. */
function countsCommand(inbox: Command): void {
  inbox
    .command('counts')
    .description('events by status, and how long the oldest pending one has waited')
    .action((_options, command: Command) =>
      withInbox(command, async (ctx, store) => {
        const [counts, oldest] = await Promise.all([store.counts(), store.oldestPending?.() ?? null])
        const ageMs = oldest === null ? null : Math.max(0, Date.now() - oldest)
        if (ctx.out.json)
          return ctx.out.result({ ...counts, oldestPendingAt: oldest, oldestPendingAgeMs: ageMs }, () => '')
        ctx.out.table(
          [...STATUSES.map((status) => ({ status, events: counts[status] }))],
          ['status', 'events'],
        )
        ctx.out.note(
          ageMs === null
            ? 'Nothing pending.'
            : `The oldest pending event has waited ${Math.round(ageMs / 1000)} s.`,
        )
      }),
    )
}

function changed(verb: string, n: number, asked: number, status: string): string {
  const what = `${n} event${n === 1 ? '' : 's'}`
  return asked > n
    ? `${verb} ${what} of ${asked} (the others are not ${status}, or not there).`
    : `${verb} ${what}.`
}

/** Opens the inbox the options name, runs `fn`, and closes it whatever happens. */
async function withInbox(command: Command, fn: (ctx: Context, store: WebhookStore) => Promise<void>) {
  const ctx = contextOf(command)
  const { store } = await openInbox(command.optsWithGlobals<InboxLocation>())
  try {
    await fn(ctx, store)
  } finally {
    await store.close().catch(() => {})
  }
}
