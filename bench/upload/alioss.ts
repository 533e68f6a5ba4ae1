/**
 * ali-oss's own `multipartUpload` of one file, for bench/upload: the client an integrator would
 * otherwise use, with its default options (1 MiB parts, 5 at once) or with `partSize` and
 * `parallel` given. Credentials from one sts-tmp call; no asset is saved. Prints one JSON line as
 * sdk.ts does.
 *
 *   node alioss.ts '<json: openUrl, token, files, partSize?, parallel?>'
 */

import { randomBytes } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename } from 'node:path'
import { fetchSts } from '../lib/sts.ts'
import { timed } from './processes.ts'

const args = JSON.parse(process.argv[2] ?? '{}') as {
  openUrl: string
  token: { type: string; value: string }
  files: string[]
  partSize?: number
  parallel?: number
}
const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { multipartUpload(key: string, file: string, options: Record<string, unknown>): Promise<unknown> }

const sts = await fetchSts(args.openUrl, args.token)
const client = new OSS({
  endpoint: sts.endPoint,
  bucket: sts.bucket,
  accessKeyId: sts.accessKeyId,
  accessKeySecret: sts.accessKeySecret,
  stsToken: sts.securityToken,
  refreshSTSTokenInterval: 3_600_000,
})
let bytes = 0
for (const file of args.files) bytes += (await stat(file)).size

const first = await timed(async () => {
  for (const file of args.files) {
    const options: Record<string, unknown> = {}
    if (args.partSize !== undefined) options.partSize = args.partSize
    if (args.parallel !== undefined) options.parallel = args.parallel
    await client.multipartUpload(
      `${sts.dir}${randomBytes(8).toString('hex')}/${basename(file)}`,
      file,
      options,
    )
  }
})
process.stdout.write(
  `${JSON.stringify({ ...first, bytes, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
)
