/**
 * A process that uploads one file with a checkpoint directory, printing its progress as JSON
 * lines, for the crash test (upload-resume.test.ts): killed with SIGKILL mid-way, then run again.
 *
 *   node --conditions=@service-sdk/source crash-child.ts '<json: openUrl, token, path, checkpoint, partSize, parallel, saveAgain?>'
 */
import { createOpenClient } from '../../src/index.ts'

const args = JSON.parse(process.argv[2] ?? '{}') as {
  openUrl: string
  token: { type: string; value: string }
  path: string
  checkpoint: string
  partSize: number
  parallel: number
  saveAgain?: boolean
}
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`)

const open = createOpenClient({ openUrl: args.openUrl, token: args.token })
const upload = open.upload(args.path, {
  partSize: args.partSize,
  parallel: args.parallel,
  checkpoint: args.checkpoint,
  saveAgain: args.saveAgain ?? false,
  onProgress: (p) => say({ progress: p.loaded, phase: p.phase, uploadId: upload?.uploadId }),
})
try {
  say({ done: await upload.done(), uploadId: upload.uploadId })
} catch (error) {
  say({ error: String(error), code: (error as { code?: string }).code })
  process.exitCode = 1
}
