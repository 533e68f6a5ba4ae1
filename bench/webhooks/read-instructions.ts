/**
 * Instructions per webhook body read (readWebhook on a decoded MATERIAL_DELETED body), with the
 * readers generated from core's zod schemas, against zod's safeParse of the same schema measured
 * in the same run: the cost the fast readers save per event. Counted by valgrind's callgrind
 * (each mode run with WARM and WARM + N reads: the difference over N, less what making and
 * decoding the bodies costs), so the figure does not depend on what else the machine is doing.
 * Needs valgrind; about 3 minutes.
 *
 *     pnpm --filter @service-sdk/bench exec node webhooks/read-instructions.ts      (N=20000, WARM=5000)
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeBody } from '../../packages/webhooks/src/events/decode.ts'
import { readWebhook, SCHEMAS } from '../../packages/webhooks/src/events/parse.ts'
import { eventBody } from './event-body.ts'

const N = Number(process.env.N ?? 20_000)
const WARM = Number(process.env.WARM ?? 5_000)
type Mode = 'decode' | 'reader' | 'zod'

if (process.argv[2] === 'child') {
  const mode = process.argv[3] as Mode
  const count = Number(process.argv[4])
  const bodies = Array.from({ length: count }, () => decodeBody(eventBody('read')))
  const schema = SCHEMAS.MATERIAL_DELETED
  for (const body of bodies) {
    if (mode === 'decode') continue
    const ok = mode === 'reader' ? readWebhook(body).warnings.length === 0 : schema.safeParse(body).success
    if (!ok) throw new Error(`${mode}: the bench body was not read cleanly`)
  }
} else {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.error('read-instructions.ts needs valgrind (apt-get install valgrind)')
    process.exit(1)
  }
  const perBody = (mode: Mode) => (instructions(mode, WARM + N) - instructions(mode, WARM)) / N
  // Making and decoding the bodies is counted in every mode: measured alone, and taken off.
  const decode = perBody('decode')
  const reader = perBody('reader') - decode
  const zod = perBody('zod') - decode
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`
  console.log(`\nInstructions per body read (callgrind, whole process; ${N} reads after ${WARM})`)
  console.log('| zod safeParse (baseline) | readWebhook, generated readers | ratio |')
  console.log('|---|---|---|')
  console.log(`| ${k(zod)} | ${k(reader)} | ${(reader / zod).toFixed(2)}x |`)
}

/** Instructions a child process executed, all threads, reading `count` bodies in `mode`. */
function instructions(mode: Mode, count: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-read-'))
  try {
    const out = join(dir, 'out')
    const args = [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      ...process.execArgv,
    ]
    const run = spawnSync('valgrind', [...args, import.meta.filename, 'child', mode, String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    if (run.status !== 0) throw new Error(`${mode} x${count} failed: ${run.stderr.toString().slice(-800)}`)
    const totals = readFileSync(out, 'utf8')
      .split('\n')
      .find((line) => line.startsWith('totals:'))
    return Number(totals?.split(/\s+/)[1])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
