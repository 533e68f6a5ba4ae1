import { SESSION_COOKIE, sessionValue } from '@/lib/session'

/** The demo's sign-in: sets the session cookie and goes back to the page. */
export function GET(request: Request) {
  const user = new URL(request.url).searchParams.get('user') || 'demo-user'
  return new Response(null, {
    status: 303,
    headers: {
      location: '/',
      'set-cookie': `${SESSION_COOKIE}=${sessionValue(user)}; Path=/; HttpOnly; SameSite=Lax`,
    },
  })
}
