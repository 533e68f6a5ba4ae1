// Uploads every file of a folder into the service: `node src/upload-folder.ts <folder> [folderId] [orgId]`.
// Reads SERVICE_OPEN_URL, SERVICE_OPEN_TOKEN_TYPE and SERVICE_OPEN_TOKEN from the environment.
import { createOpenClient } from '@service-sdk/open'
import { listFiles } from './files.ts'
import { progressLine } from './progress.ts'

const [folder, folderId = '0', orgId] = process.argv.slice(2)
if (!folder) {
  console.error('usage: node src/upload-folder.ts <folder> [folderId] [orgId]')
  process.exit(2)
}
const env = (name: string) => {
  const value = process.env[name]
  if (value) return value
  console.error(`${name} is not set (for the simulator: pnpm exec service-sdk sim --env)`)
  process.exit(2)
}

const open = createOpenClient({
  openUrl: env('SERVICE_OPEN_URL'),
  token: { type: env('SERVICE_OPEN_TOKEN_TYPE'), value: env('SERVICE_OPEN_TOKEN') },
})

const files = await listFiles(folder)
if (files.length === 0) {
  console.error(`${folder} holds no file`)
  process.exit(1)
}

// Ctrl-C stops every upload; the parts already sent are cleaned up by open.cleanupUploads() later.
const controller = new AbortController()
process.once('SIGINT', () => controller.abort())

const started = Date.now()
const batch = open.uploadMany(
  files.map((file) => file.path),
  { folderId, ...(orgId ? { orgId } : {}), concurrency: 4, signal: controller.signal },
)
// Progress goes to stderr, one line redrawn in place on a terminal; the results go to stdout.
const redraw = process.stderr.isTTY ? '\r\x1b[2K' : ''
const end = process.stderr.isTTY ? '' : '\n'
let lastDrawn = 0
batch.onProgress((progress) => {
  if (Date.now() - lastDrawn < 200 && progress.files.saved < progress.files.total) return
  lastDrawn = Date.now()
  process.stderr.write(`${redraw}${progressLine(progress, Date.now() - started)}${end}`)
})

const results = await batch.done()
process.stderr.write(`${redraw}${progressLine(batch.progress, Date.now() - started)}\n`)
let failed = 0
for (const result of results) {
  const file = files[result.index]?.relativePath
  if (result.status === 'fulfilled') {
    console.log(`ok ${file} -> ${result.asset.accessUrl}`)
  } else {
    failed++
    console.log(
      `failed ${file}: ${result.error instanceof Error ? result.error.message : String(result.error)}`,
    )
  }
}
process.exitCode = failed > 0 ? 1 : 0
