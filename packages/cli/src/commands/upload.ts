import { join } from 'node:path'
import type { OpenClient } from '@service-sdk/open'
import { type Command, InvalidArgumentError } from 'commander'
import { stateDir } from '../config.ts'
import { type Context, contextOf } from '../context.ts'
import { EXIT } from '../errors.ts'
import { type LocalFile, resolveFiles } from '../files.ts'
import { type Journal, openJournal, type SavedAsset } from '../journal.ts'
import { formatBytes, pc } from '../output.ts'
import { createDisplay, type UploadDisplay } from '../progress.ts'

interface UploadOptions {
  folder?: string
  org?: string
  concurrency: number
}

interface Outcome {
  file: LocalFile
  status: 'saved' | 'skipped' | 'failed'
  asset?: SavedAsset
  error?: string
}

const positiveInt = (value: string) => {
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < 1 || n > 64)
    throw new InvalidArgumentError('a whole number from 1 to 64')
  return n
}
const decimalId = (value: string) => {
  if (!/^\d{1,19}$/.test(value)) throw new InvalidArgumentError('an id of decimal digits')
  return value
}

export function uploadCommand(program: Command): void {
  program
    .command('upload <paths...>')
    .description(
      'upload files and save them as assets, with live progress; resumable (run it again after Ctrl-C or a crash)',
    )
    .option('--folder <folderId>', 'the folder to save into (default: the root of the space)', decimalId)
    .option(
      '--org <orgId>',
      'the team space (default: the personal space; `service spaces` lists them)',
      decimalId,
    )
    .option('--concurrency <n>', 'files uploaded at once', positiveInt, 3)
    .addHelpText(
      'after',
      `
Paths may be files, directories (every file below) or quoted globs.
In a terminal: p pauses (files in flight finish, no new one starts), q or Ctrl-C stops.
After Ctrl-C or a crash, run the same command again: saved files are skipped, started ones continue
where they stopped (the parts already stored are not sent again).

Examples:
  service upload brochure.pdf
  service upload ./shoot --org 1001 --folder 1753946835010000001 --concurrency 4
  service upload "assets/**/*.png" --org 1001 --json`,
    )
    .action(async (paths: string[], options: UploadOptions, command: Command) => {
      const ctx = contextOf(command)
      const open = await ctx.open()
      const files = await resolveFiles(paths)
      const destination = [
        ctx.config.require('openUrl'),
        options.org ?? 'personal',
        options.folder ?? '0',
      ].join('|')
      const journal = openJournal(join(stateDir(), 'uploads'), destination)
      const outcomes = await run(ctx, open, files, options, journal)
      const failed = outcomes.filter((o) => o.status === 'failed').length
      if (failed === 0) journal.remove()
      summary(ctx, outcomes)
      if (failed > 0) {
        ctx.out.note(
          `${pc.red(`${failed} of ${files.length} files failed.`)} Run the same command again to retry them.`,
        )
        process.exitCode = EXIT.failed
      }
    })
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
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await controls.ready()
      outcomes.push(await uploadOne(open, file, options, journal, display, checkpoint))
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

async function uploadOne(
  open: OpenClient,
  file: LocalFile,
  options: UploadOptions,
  journal: Journal,
  display: UploadDisplay,
  checkpoint: string,
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
      checkpoint,
      onProgress: ({ loaded }) => display.progress(file, loaded),
    })
    const saved = await upload.done()
    const asset = { id: saved.id, name: saved.name, accessUrl: saved.accessUrl }
    journal.record(file, asset)
    display.finish(file, 'saved', formatBytes(file.size))
    return { file, status: 'saved', asset }
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
    display.finish(file, 'failed', message)
    return { file, status: 'failed', error: message }
  }
}

function summary(ctx: Context, outcomes: Outcome[]): void {
  ctx.out.table(
    outcomes.map((o) => ({
      file: o.file.path,
      size: ctx.out.json ? o.file.size : formatBytes(o.file.size),
      status: o.status,
      id: o.asset?.id,
      link: o.asset?.accessUrl,
      error: o.error,
    })),
    outcomes.some((o) => o.error)
      ? ['file', 'size', 'status', 'id', 'link', 'error']
      : ['file', 'size', 'status', 'id', 'link'],
  )
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
