/** Formatting and pairing of the webhooks bench's figures. */
import { median, recordTarget } from '../../lib/report.ts'

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/**
 * The median of each round's own ratio `a[i] / b[i]`: this machine's speed drifted by up to 2x
 * within minutes, and a ratio of medians taken from different rounds carries that drift; the
 * two runs of one round, back to back, mostly share it. NaN when a figure is missing.
 */
export function pairedRatio(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
): number {
  const ratios = a.map((x, i) => (x === undefined || b[i] === undefined ? Number.NaN : x / b[i]!))
  return ratios.some(Number.isNaN) ? Number.NaN : median(ratios)
}

/** The median, or undefined when any value is (a figure this machine cannot give). */
export function medianOf(values: ReadonlyArray<number | undefined>): number | undefined {
  return values.every((v) => v !== undefined) ? median(values as number[]) : undefined
}

/**
 * Record one of the webhooks bench's targets: a ratio (`x`) or milliseconds (`ms`) against a
 * bound, `at most` or `at least`. A figure that could not be measured (NaN) is not met.
 */
export function webhooksTarget(
  measure: string,
  figure: number,
  bound: { atMost?: number; atLeast?: number; unit: 'x' | 'ms' },
): boolean {
  const unit = bound.unit === 'x' ? 'x' : ' ms'
  const digits = bound.unit === 'x' ? 2 : 0
  const limit = bound.atMost ?? bound.atLeast!
  return recordTarget({
    bench: 'webhooks',
    measure,
    figure: Number.isNaN(figure) ? 'not measured' : `${fmt(figure, digits)}${unit}`,
    target: `${bound.atMost !== undefined ? '<=' : '>='} ${limit}${unit}`,
    met: bound.atMost !== undefined ? figure <= bound.atMost : figure >= limit,
  })
}
