/**
 * The demo's sign-in: a cookie set by /login. Replace it with your own authentication (Auth.js,
 * Clerk, your session store...): the upload proxy only needs to know who the caller is.
 */
export const SESSION_COOKIE = 'demo-session'

/** The signed-in user's id from the request's cookies, or undefined. */
export function userOf(request: Request): string | undefined {
  const cookies = request.headers.get('cookie') ?? ''
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('=')) || undefined
  }
  return undefined
}
