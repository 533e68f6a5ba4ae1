import { InvalidArgumentError } from 'commander'

// The parsers of option values. Commander runs them while it parses the command line, so a bad
// value is a usage error (exit 2) naming the option, before the command reads a file or sends
// anything. Each message says what the option takes.

/** A whole number from `min` to `max`: no fraction, no exponent, no sign, no empty string. */
export const wholeNumber =
  (min: number, max: number, what = 'a whole number') =>
  (value: string): number => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`${what} from ${min} to ${max}`)
    return n
  }

/** A number above `min`, at most `max`, fractions allowed (`0.5`). */
export const positiveNumber =
  (max: number, what: string) =>
  (value: string): number => {
    const n = /^\d+(\.\d+)?$|^\.\d+$/.test(value.trim()) ? Number(value) : Number.NaN
    if (!(n > 0 && n <= max)) throw new InvalidArgumentError(`${what} above 0, at most ${max}`)
    return n
  }

export const port = wholeNumber(0, 65_535, 'a port')

/** An id of the service: decimal digits, 64-bit. */
export const decimalId = (value: string): string => {
  if (!/^\d{1,19}$/.test(value)) throw new InvalidArgumentError('an id of decimal digits')
  return value
}

export const httpUrl = (value: string): string => {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new InvalidArgumentError('an http(s) URL')
  return value
}

/** A comma-separated list; the option may be given more than once. */
export const csv = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
]

/** A page's origin (`https://app.example.com`), as a browser sends it in `Origin`; repeatable. */
export const pageOrigins = (value: string, previous: string[] = []): string[] => {
  const origins = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
  const isOrigin = (value: string) => {
    if (!URL.canParse(value)) return false
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username
  }
  for (const origin of origins)
    if (!isOrigin(origin)) throw new InvalidArgumentError('a page origin: http(s)://host[:port], no path')
  return [...previous, ...origins.map((o) => new URL(o).origin)]
}
