// autocannon ships no types: the part of its API this benchmark uses.
declare module 'autocannon' {
  interface Histogram {
    average: number
    p50: number
    p99: number
  }
  interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    connections?: number
    duration?: number
    /** Stop after this many requests (instead of `duration`). */
    amount?: number
    overallRate?: number
    /** Seconds before a request counts as timed out (default 10). */
    timeout?: number
    body?: string
    requests?: Array<{ setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }>
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    '2xx': number
    non2xx: number
    errors: number
    timeouts: number
  }
  export default function autocannon(options: Options): Promise<Result>
}
