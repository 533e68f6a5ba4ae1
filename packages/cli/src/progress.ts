import { basename } from 'node:path'
import cliProgress from 'cli-progress'
import type { LocalFile } from './files.ts'
import { formatBytes, pc } from './output.ts'

/** How a file ended: saved, saved before (skipped), failed, or its save's outcome unknown. */
export type Outcome = 'saved' | 'skipped' | 'failed' | 'unknown'

/** What the upload command tells the display; a TTY shows bars, anything else one line per file. */
export interface UploadDisplay {
  start(file: LocalFile): void
  progress(file: LocalFile, loaded: number): void
  finish(file: LocalFile, outcome: Outcome, detail?: string): void
  paused(paused: boolean): void
  stop(): void
}

const FORMAT = '{name} {bar} {percentage}% | {done}/{size} | {rate} | ETA {eta_formatted}'

/** Bytes per second over the last few seconds: a rate that follows changes without jumping. */
function rateMeter() {
  const samples: Array<[number, number]> = []
  return (bytes: number): string => {
    const now = Date.now()
    samples.push([now, bytes])
    while (samples.length > 2 && now - (samples[0]?.[0] ?? now) > 5_000) samples.shift()
    const [t0, b0] = samples[0] ?? [now, bytes]
    const seconds = (now - t0) / 1000
    return seconds > 0.2 ? `${formatBytes(Math.max(0, bytes - b0) / seconds)}/s` : '…'
  }
}

export function createDisplay(files: LocalFile[], interactive: boolean): UploadDisplay {
  if (!interactive) return lineDisplay()
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0)
  const multi = new cliProgress.MultiBar(
    {
      format: FORMAT,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
      autopadding: true,
      fps: 8,
      etaBuffer: 40,
    },
    cliProgress.Presets.shades_classic,
  )
  const payload = (name: string, loaded: number, size: number, rate: string) => ({
    name: name.length > 24 ? `${name.slice(0, 23)}…` : name.padEnd(24),
    done: formatBytes(loaded),
    size: formatBytes(size),
    rate,
  })
  const totalRate = rateMeter()
  const total = multi.create(
    Math.max(totalBytes, 1),
    0,
    payload(`total (${files.length} files)`, 0, totalBytes, '…'),
  )
  const bars = new Map<
    LocalFile,
    { bar: cliProgress.SingleBar; loaded: number; rate: (b: number) => string }
  >()
  let sum = 0
  const finished = new Map<LocalFile, number>()
  const update = () => {
    sum =
      [...finished.values()].reduce((a, b) => a + b, 0) + [...bars.values()].reduce((a, b) => a + b.loaded, 0)
    total.update(
      sum,
      payload(`total (${finished.size}/${files.length} files)`, sum, totalBytes, totalRate(sum)),
    )
  }
  return {
    start(file) {
      const bar = multi.create(Math.max(file.size, 1), 0, payload(basename(file.path), 0, file.size, '…'))
      bars.set(file, { bar, loaded: 0, rate: rateMeter() })
    },
    progress(file, loaded) {
      const entry = bars.get(file)
      if (!entry) return
      entry.loaded = loaded
      entry.bar.update(loaded, payload(basename(file.path), loaded, file.size, entry.rate(loaded)))
      update()
    },
    finish(file, outcome, detail) {
      const entry = bars.get(file)
      if (entry) {
        multi.remove(entry.bar)
        bars.delete(file)
      }
      finished.set(file, outcome === 'saved' || outcome === 'skipped' ? file.size : 0)
      multi.log(`${mark(outcome)} ${basename(file.path)}${detail ? pc.dim(` ${detail}`) : ''}\n`)
      update()
    },
    paused(paused) {
      multi.log(
        paused
          ? `${pc.yellow('Paused')}: files in flight finish, no new one starts. Press p to go on.\n`
          : `${pc.green('Resumed')}\n`,
      )
    },
    stop() {
      // A last render first: lines logged since the previous frame are written only by a render.
      multi.update()
      multi.stop()
    },
  }
}

const MARKS: Record<Outcome, string> = {
  saved: pc.green('✓'),
  skipped: pc.dim('='),
  failed: pc.red('✗'),
  unknown: pc.yellow('?'),
}
const mark = (outcome: Outcome) => MARKS[outcome]

function lineDisplay(): UploadDisplay {
  return {
    start: () => {},
    progress: () => {},
    finish(file, outcome, detail) {
      process.stderr.write(
        `${mark(outcome)} ${basename(file.path)} ${outcome}${detail ? ` ${detail}` : ''}\n`,
      )
    },
    paused: () => {},
    stop: () => {},
  }
}
