/**
 * The baseline of bench/upload: the same bytes to the same object store with nothing but
 * node:http and a hand-made OSS V1 signature. One large file goes up as `parallel` concurrent
 * PUTs of `chunk` bytes (each its own object, read from the file as it is sent); many files as
 * `parallel` concurrent PUTs of one file each. Credentials from one sts-tmp call; no asset is saved.
 * `warmup` files are sent first, untimed, and `again` files after, timed apart, as sdk.ts does.
 * With `crc` (many files), each file's CRC-64 is computed with the SDK's own code and checked
 * against the one the store reports, as the SDK checks every upload: the cost of integrity alone,
 * without the rest of the SDK.
 *
 *   node raw.ts '<json: openUrl, token, files, chunk, parallel, warmup?, again?, crc?>'
 */
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import http from 'node:http'
import { crc64 } from '../../packages/open/src/upload/crc64/crc64.ts'
import { fetchSts } from '../lib/sts.ts'
import { timed } from './processes.ts'
import { pool, rawPut } from './raw-put.ts'

const args = JSON.parse(process.argv[2] ?? '{}') as {
  openUrl: string
  token: { type: string; value: string }
  files: string[]
  chunk: number
  parallel: number
  warmup?: string[]
  again?: string[]
  crc?: boolean
}

const sts = await fetchSts(args.openUrl, args.token)
const agent = new http.Agent({ keepAlive: true })
const run = randomBytes(6).toString('hex')
const put = (key: string, size: number, body: () => NodeJS.ReadableStream | Buffer) =>
  rawPut(sts, agent, key, size, body)
/** One small file, its CRC-64 checked when `crc` is set. */
const putFile = async (key: string, content: Buffer) => {
  const reported = await put(key, content.length, () => content)
  if (args.crc && reported !== String(crc64(content))) throw new Error(`${key}: CRC-64 ${reported} differs`)
}

/** One job per small file, each stored as `<prefix>-<n>`. */
function fileJobs(files: string[], prefix: string, onRead = (_bytes: number) => {}) {
  return files.map((file, n) => async () => {
    const content = await readFile(file)
    onRead(content.length)
    await putFile(`${sts.dir}raw-${run}/${prefix}-${n}`, content)
  })
}

let bytes = 0
const jobs: Array<() => Promise<void>> = []
if (args.files.length === 1) {
  const [file] = args.files as [string]
  const size = (await stat(file)).size
  bytes = size
  for (let start = 0, n = 0; start < size; start += args.chunk, n++) {
    const end = Math.min(size, start + args.chunk)
    jobs.push(async () => {
      await put(`${sts.dir}raw-${run}/${n}`, end - start, () =>
        createReadStream(file, { start, end: end - 1, highWaterMark: 256 * 1024 }),
      )
    })
  }
} else {
  jobs.push(...fileJobs(args.files, 'file', (n) => (bytes += n)))
}

if (args.warmup?.length) await pool(fileJobs(args.warmup, 'warmup'), args.parallel)

const first = await timed(() => pool(jobs, args.parallel))
const maxRssMiB = process.resourceUsage().maxRSS / 1024
// A second go, so that the bench counts the simulator's CPU of each run apart.
const { again } = args
const steady = again ? await timed(() => pool(fileJobs(again, 'again'), args.parallel)) : undefined
agent.destroy()
process.stdout.write(`${JSON.stringify({ ...first, bytes, maxRssMiB, steady })}\n`)
