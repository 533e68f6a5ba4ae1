import { join } from 'node:path'
import type { OpenClient, UploadOptions as SdkUploadOptions } from '@service-sdk/open'
import type { Command } from 'commander'
import { stateDir } from '../config.ts'
import { type Context, contextOf } from '../context.ts'
import { EXIT } from '../errors.ts'
import { type LocalFile, resolveFiles, type Unreadable } from '../files.ts'
import { decimalId, wholeNumber } from '../flags.ts'
import { type Journal, openJournal, type SavedAsset } from '../journal.ts'
import { formatBytes, pc } from '../output.ts'
import { createDisplay, type UploadDisplay } from '../progress.ts'

interface UploadOptions {
  folder?: string
  org?: string
  concurrency: number
  saveAgain?: boolean
}

/** `unknown`: material-save was sent and no answer came (a crash, a cut): the asset may exist. */
type Status = 'saved' | 'skipped' | 'failed' | 'unknown'

interface Outcome {
  file: LocalFile
  status: Status
  asset?: SavedAsset
  error?: string
}

/** The open client's verdict when a checkpoint shows a save sent without an answer. */
const SAVE_OUTCOME_UNKNOWN = 'save_outcome_unknown'
const UNKNOWN_MESSAGE = 'save outcome unknown: check the space; run again with --save-again to save it again'

export function uploadCommand(program: Command): void {
  program
    .command('upload <paths...>')
    .description(
      'upload files and save them as assets, with live progress; resumable (run it again after Ctrl-C or a crash)',
    )
    .option('--folder <folderId>', 'the folder to save into (default: the root of the space)', decimalId)
    .option(
      '--org <orgId>',
      'the team space (default: the personal space; `service-sdk spaces` lists them)',
      decimalId,
    )
    .option('--concurrency <n>', 'files uploaded at once, 1 to 64', wholeNumber(1, 64), 3)
    .option(
      '--save-again',
      'save files whose earlier save got no answer (status unknown) again, even if that makes a second asset',
    )
    .addHelpText(
      'after',
      `
Paths may be files, directories (every file below; hidden ones left out) or quoted globs.
Entries that are not files it can read (dangling links, FIFOs, sockets, no permission) are named
and skipped; the others are uploaded.
In a terminal: p pauses (files in flight finish, no new one starts), q or Ctrl-C stops.
After Ctrl-C or a crash, run the same command again: saved files are skipped, started ones continue
where they stopped (the parts already stored are not sent again). One upload at a time per
destination: a second one is refused (exit 7).

Exit codes: 0 all saved, 1 a file failed, 5 entries skipped as unreadable, 6 a save's outcome is
unknown, 7 another upload to this destination is running (the first that applies: 6, 1, 5).

Examples:
  service-sdk upload brochure.pdf
  service-sdk upload ./shoot --org 1001 --folder 1753946835010000001 --concurrency 4
  service-sdk upload "assets/**/*.png" --org 1001 --json`,
    )
    .action(async (paths: string[], options: UploadOptions, command: Command) => {
      const ctx = contextOf(command)
      const open = await ctx.open()
      const { files, unreadable } = await resolveFiles(paths)
      for (const entry of unreadable)
        ctx.out.note(`${pc.yellow('!')} ${entry.path}: ${entry.reason}; skipped`)
      const destination = [
        ctx.config.require('openUrl'),
        options.org ?? 'personal',
        options.folder ?? '0',
      ].join('|')
      const journal = openJournal(join(stateDir(), 'uploads'), destination)
      try {
        const outcomes = await run(ctx, open, files, options, journal)
        if (outcomes.every((o) => o.status === 'saved' || o.status === 'skipped')) journal.remove()
        summary(ctx, outcomes, unreadable)
        process.exitCode = exitCode(ctx, outcomes, unreadable, files.length)
      } finally {
        journal.close()
      }
    })
}

/** The exit code, and a line saying what to do about each kind of file that is not saved. */
function exitCode(ctx: Context, outcomes: Outcome[], unreadable: Unreadable[], total: number): number {
  const count = (status: Status) => outcomes.filter((o) => o.status === status).length
  const unknown = count('unknown')
  const failed = count('failed')
  if (unknown > 0)
    ctx.out.note(
      `${pc.yellow(`${unknown} of ${total} files: the save's outcome is unknown.`)} Check the space; run the same command with --save-again to save them again.`,
    )
  if (failed > 0)
    ctx.out.note(`${pc.red(`${failed} of ${total} files failed.`)} Run the same command again to retry them.`)
  if (unreadable.length > 0)
    ctx.out.note(`${pc.yellow(`${unreadable.length} entries were skipped`)}: not files this user can read.`)
  if (unknown > 0) return EXIT.unknown
  if (failed > 0) return EXIT.failed
  if (unreadable.length > 0) return EXIT.skipped
  return EXIT.ok
}

async function run(
  ctx: Context,
  open: OpenClient,
  files: LocalFile[],
  options: UploadOptions,
  journal: Journal,
): Promise<Outcome[]> {
  const interactive = !ctx.out.json && process.stderr.isTTY === true
  const display = createDisplay(files, interactive)
  const controls = keyControls(display, interactive)
  const outcomes: Outcome[] = []
  const queue = [...files]
  const checkpoint = join(stateDir(), 'checkpoints')
  const { UploadError } = await import('@service-sdk/open')
  const unknown = (error: unknown) => UploadError.isInstance(error) && error.code === SAVE_OUTCOME_UNKNOWN
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await controls.ready()
      outcomes.push(await uploadOne(open, file, { ...options, checkpoint, unknown }, journal, display))
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, files.length) }, worker))
  } finally {
    controls.close()
    display.stop()
  }
  return files.map((f) => outcomes.find((o) => o.file === f) as Outcome)
}

interface OneOptions extends UploadOptions {
  checkpoint: string
  unknown: (error: unknown) => boolean
}

async function uploadOne(
  open: OpenClient,
  file: LocalFile,
  options: OneOptions,
  journal: Journal,
  display: UploadDisplay,
): Promise<Outcome> {
  const before = journal.saved(file)
  if (before) {
    display.finish(file, 'skipped', 'saved before')
    return { file, status: 'skipped', asset: before }
  }
  display.start(file)
  try {
    const upload = open.upload(file.path, {
      ...(options.folder ? { folderId: options.folder } : {}),
      ...(options.org ? { orgId: options.org } : {}),
      // Sent only when asked for: an open client that does not know the option refuses it.
      ...((options.saveAgain ? { saveAgain: true } : {}) as SdkUploadOptions),
      checkpoint: options.checkpoint,
      onProgress: ({ loaded }) => display.progress(file, loaded),
    })
    const saved = await upload.done()
    const asset = { id: saved.id, name: saved.name, accessUrl: saved.accessUrl }
    journal.record(file, asset)
    display.finish(file, 'saved', formatBytes(file.size))
    return { file, status: 'saved', asset }
  } catch (error) {
    if (options.unknown(error)) {
      display.finish(file, 'unknown', UNKNOWN_MESSAGE)
      return { file, status: 'unknown', error: UNKNOWN_MESSAGE }
    }
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
    display.finish(file, 'failed', message)
    return { file, status: 'failed', error: message }
  }
}

/** One row per entry, with the SDK's names for the asset's fields (`id`, `name`, `accessUrl`). */
function summary(ctx: Context, outcomes: Outcome[], unreadable: Unreadable[]): void {
  const rows: Array<Record<string, unknown>> = outcomes.map((o) => ({
    file: o.file.path,
    size: ctx.out.json ? o.file.size : formatBytes(o.file.size),
    status: o.status,
    id: o.asset?.id,
    name: o.asset?.name,
    accessUrl: o.asset?.accessUrl,
    error: o.error,
  }))
  for (const entry of unreadable) rows.push({ file: entry.path, status: 'unreadable', error: entry.reason })
  const columns = ['file', 'size', 'status', 'id', 'accessUrl']
  ctx.out.table(rows, rows.some((r) => r.error) ? [...columns, 'error'] : columns)
}

/**
 * Ctrl-C (and q) stop at once without aborting: checkpoints and the journal stay, so the same
 * command continues. p pauses the queue in a terminal.
 */
function keyControls(display: UploadDisplay, interactive: boolean) {
  let paused = false
  let wake: (() => void) | undefined
  const interrupt = () => {
    display.stop()
    process.stderr.write(
      `\n${pc.yellow('Interrupted.')} Run the same command again to continue where it stopped.\n`,
    )
    process.exit(EXIT.interrupted)
  }
  process.once('SIGINT', interrupt)
  process.once('SIGTERM', interrupt)
  const stdin = process.stdin
  const keys = interactive && stdin.isTTY === true
  const onKey = (data: Buffer) => {
    const key = data.toString()
    if (key === '\u0003' || key === 'q') interrupt()
    if (key === 'p') {
      paused = !paused
      display.paused(paused)
      if (!paused) wake?.()
    }
  }
  if (keys) {
    stdin.setRawMode(true)
    stdin.on('data', onKey)
    stdin.resume()
  }
  return {
    async ready() {
      while (paused) await new Promise<void>((resolve) => (wake = resolve))
    },
    close() {
      process.removeListener('SIGINT', interrupt)
      process.removeListener('SIGTERM', interrupt)
      if (keys) {
        stdin.off('data', onKey)
        stdin.setRawMode(false)
        stdin.pause()
      }
    },
  }
}
