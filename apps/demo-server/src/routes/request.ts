import type { Context, Next } from 'hono'
import type { z } from 'zod'
import { DemoError } from '../errors.ts'

/** Digits of an id, as the service's ids are. */
export const ID = /^\d{1,19}$/

/** The request's JSON body checked with `schema`; `empty` stands for an empty body when given. */
export async function body<T extends z.ZodType>(
  c: Context,
  schema: T,
  empty?: z.input<T>,
): Promise<z.output<T>> {
  const text = await c.req.text()
  let value: unknown
  if (text.trim() === '' && empty !== undefined) value = empty
  else {
    try {
      value = JSON.parse(text)
    } catch {
      throw new DemoError(400, 'invalid_input', 'The request body must be JSON.')
    }
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }))
    throw new DemoError(400, 'invalid_input', issues.map((i) => `${i.field} ${i.message}`).join('; '), issues)
  }
  return parsed.data
}

/**
 * Everything but the webhook receiver and the probes serves people: only under a known host name
 * (a DNS-rebinding page cannot reach the admin API), and state changes only from this origin.
 */
export function peopleOnly(allowedHosts: readonly string[]) {
  return async (c: Context, next: Next) => {
    const host = hostnameOf(c)
    if (!allowedHosts.includes(host)) {
      return c.text(
        `Unknown host name "${host}". Add it to DEMO_ALLOWED_HOSTS to serve the demo under it.`,
        421,
      )
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin')
      if (origin === 'null' || (origin !== undefined && new URL(origin).host !== hostOf(c))) {
        throw new DemoError(403, 'cross_origin', 'Cross-origin requests are not accepted.')
      }
    }
    await next()
  }
}

function hostOf(c: Context): string {
  return (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase()
}

function hostnameOf(c: Context): string {
  const host = hostOf(c)
  // `[::1]:5173` keeps its brackets; `localhost:5173` loses the port.
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '')
}
