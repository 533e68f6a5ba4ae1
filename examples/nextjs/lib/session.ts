import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * The demo's sign-in: a cookie set by /login, holding the user's id and an HMAC of it under the
 * server's secret (`SESSION_SECRET`), so that a browser cannot make itself another user by editing
 * the cookie. Replace it with your own authentication (Auth.js, Clerk, iron-session, your session
 * store...): the upload proxy only needs to know who the caller is.
 */
export const SESSION_COOKIE = 'demo-session'

/** `SESSION_SECRET`, or (a demo run without one) a random secret for this process's lifetime. */
const secret = process.env.SESSION_SECRET || randomBytes(32).toString('hex')

const mac = (user: string) => createHmac('sha256', secret).update(user).digest('base64url')

/** The cookie value that signs `user` in: `<user>.<mac>`. */
export function sessionValue(user: string): string {
  return `${encodeURIComponent(user)}.${mac(user)}`
}

/** The signed-in user's id from the request's cookies; undefined without a valid signature. */
export function userOf(request: Request): string | undefined {
  const cookies = request.headers.get('cookie') ?? ''
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name !== SESSION_COOKIE) continue
    const value = rest.join('=')
    const dot = value.lastIndexOf('.')
    if (dot <= 0) return undefined
    const user = decodeURIComponent(value.slice(0, dot))
    const given = Buffer.from(value.slice(dot + 1))
    const expected = Buffer.from(mac(user))
    return given.length === expected.length && timingSafeEqual(given, expected) ? user : undefined
  }
  return undefined
}
