/**
 * The SDK side of bench/upload, in a process of its own so that its peak RSS is the SDK's: one
 * `upload()` of a file, or one `uploadMany()` of many. Prints one JSON line: seconds, bytes, peak
 * RSS, CPU seconds, and how many sts-tmp and material-save calls the timed run made.
 * `warmup` files are uploaded first, untimed, by another client (its own credentials): the timed
 * run starts warm (connections, part of the JIT) but with no credentials cached.
 * With `again`, the same client then uploads those files too, timed apart (`steady`: seconds, CPU
 * seconds): by then V8 has compiled what the per-file path runs (see upload.bench.ts).
 *
 *   node sdk.ts '<json: openUrl, token, files, many?, warmup?, again?>'
 */
import { stat } from 'node:fs/promises'
import { createOpenClient } from '@service-sdk/open'
import { timed } from './processes.ts'

const args = JSON.parse(process.argv[2] ?? '{}') as {
  openUrl: string
  token: { type: string; value: string }
  files: string[]
  many?: boolean
  warmup?: string[]
  again?: string[]
}
if (args.warmup?.length) {
  const results = await createOpenClient({ openUrl: args.openUrl, token: args.token })
    .uploadMany(args.warmup)
    .done()
  if (results.some((r) => r.status === 'rejected')) throw new Error('the warm-up upload failed')
}
const calls = { sts: 0, save: 0 }
const open = createOpenClient({
  openUrl: args.openUrl,
  token: args.token,
  fetch: (input, init) => {
    const url = String(input instanceof Request ? input.url : input)
    if (url.endsWith('/sts-tmp')) calls.sts++
    if (url.endsWith('/material-save')) calls.save++
    return fetch(input, init)
  },
})
let bytes = 0
for (const file of args.files) bytes += (await stat(file)).size

/** Uploads `files` with `open`. */
async function upload(files: string[]): Promise<void> {
  if (args.many) {
    const results = await open.uploadMany(files).done()
    const failed = results.filter((r) => r.status === 'rejected')
    if (failed.length > 0)
      throw new Error(`${failed.length} files failed: ${String((failed[0] as { error: unknown }).error)}`)
  } else {
    for (const file of files) await open.upload(file).done()
  }
}

const first = await timed(() => upload(args.files))
const firstCalls = { ...calls }
const maxRssMiB = process.resourceUsage().maxRSS / 1024
// A second go, so that the bench counts the simulator's CPU of each run apart.
const { again } = args
const steady = again ? await timed(() => upload(again)) : undefined
process.stdout.write(`${JSON.stringify({ ...first, bytes, maxRssMiB, ...firstCalls, steady })}\n`)
