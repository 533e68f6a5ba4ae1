import { appendFileSync } from 'node:fs'

/** The q-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))] ?? Number.NaN
  )
}

/** The median of `values`: the middle one, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Print rows as an aligned table under a title. */
export function printTable(title: string, rows: ReadonlyArray<ReadonlyArray<string>>): void {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  console.log(`\n${title}`)
  for (const row of rows) console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`)
}

/** One target of one bench, as the dashboard at the end of `pnpm bench` shows it. */
export interface TargetRow {
  /** The bench that measured it: `webhooks`, `upload`... */
  bench: string
  /** What is measured, in words: `p50 SDK / fetch`. */
  measure: string
  /** The figure measured, formatted with its unit: `1.08x`, `23 ms`. */
  figure: string
  /** The target, formatted: `<= 1.05x`. */
  target: string
  met: boolean
}

/**
 * Print a target's verdict line (`target <measure> <target>: met (<figure>)`) and append the row
 * to the JSON lines file `BENCH_RESULTS` names (bench/run.ts sets it; unset when a bench runs on
 * its own, then only the line is printed). Returns `met`.
 */
export function recordTarget(row: TargetRow): boolean {
  console.log(`target ${row.measure} ${row.target}: ${row.met ? 'met' : 'NOT met'} (${row.figure})`)
  const file = process.env.BENCH_RESULTS
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`)
  return row.met
}

/** The rows of a `BENCH_RESULTS` file's text, in the order they were recorded. */
export function readTargets(text: string): TargetRow[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TargetRow)
}
