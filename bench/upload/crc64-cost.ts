/**
 * The CPU the upload integrity check costs per MiB: the SDK's CRC-64 (its WebAssembly kernel, and
 * the JavaScript tables it falls back to), next to node:crypto's MD5 and zlib's CRC-32 (native
 * code, for scale). Each is fed the same 1 MiB buffer; runs alternate, and the medians print.
 * bench/upload's large-file ratio depends on this: the raw baseline computes no CRC.
 *
 *     pnpm --filter @service-sdk/bench exec node upload/crc64-cost.ts      (MIB=256 per run, ROUNDS=5)
 */
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { createCrc64 } from '../../packages/open/src/upload/crc64/crc64.ts'
import { median } from '../lib/report.ts'

const MIB = Number(process.env.MIB ?? 256)
const ROUNDS = Number(process.env.ROUNDS ?? 5)
const data = new Uint8Array(1024 * 1024).map(() => (Math.random() * 256) | 0)

const contenders: Record<string, () => void> = {
  'CRC-64, WebAssembly (the SDK in Node)': () => {
    const crc = createCrc64()
    for (let i = 0; i < MIB; i++) crc.update(data)
  },
  'CRC-64, JavaScript tables (the fallback)': () => {
    const crc = createCrc64(true)
    for (let i = 0; i < MIB; i++) crc.update(data)
  },
  'MD5, node:crypto': () => {
    const md5 = createHash('md5')
    for (let i = 0; i < MIB; i++) md5.update(data)
    md5.digest()
  },
  'CRC-32, node:zlib': () => {
    let crc = 0
    for (let i = 0; i < MIB; i++) crc = crc32(data, crc)
  },
}

const msPerMiB = (run: () => void) => {
  const start = process.cpuUsage()
  run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000 / MIB
}
const runs = new Map<string, number[]>(Object.keys(contenders).map((name) => [name, []]))
for (const run of Object.values(contenders)) run() // warm-up
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.entries(contenders)
  if (round % 2) order.reverse()
  for (const [name, run] of order) runs.get(name)!.push(msPerMiB(run))
}
console.log(`CPU per MiB, ${MIB} MiB a run, ${ROUNDS} alternating rounds, medians`)
console.log('| hash | ms per MiB | GB/s |')
console.log('|---|---|---|')
for (const [name, values] of runs) {
  const ms = median(values)
  console.log(`| ${name} | ${ms.toFixed(3)} | ${(1.048576 / ms).toFixed(2)} |`)
}
