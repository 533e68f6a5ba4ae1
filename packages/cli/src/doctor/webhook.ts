import { withoutToken } from '../output.ts'
import { type Finding, fail, ok, skip, warn } from './finding.ts'
import { send } from './http.ts'

const CHECK = 'webhook-url'

/**
 * Whether a webhook receiver's URL answers, without making an event: one POST with an empty
 * `text/plain` body. The SDK's receiver (and any receiver of JSON) refuses it before reading it:
 * 415 when the path and the token in its last segment are right, 404 when not. Nothing is stored.
 * "Answers" means 415 (right), or a refusal of the body (400, 422); a 2xx to an empty non-JSON
 * body is a warning (the receiver takes anything), a redirect a warning (a sender may not
 * follow it), and 404, 405, 401, 403, 5xx or no answer at all a failure.
 */
export async function webhookFinding(
  url: string | undefined,
  openUrl: string | undefined,
  timeoutMs: number,
): Promise<Finding> {
  if (url === undefined)
    return skip(
      CHECK,
      'not checked: no --webhook-url given',
      "To check a receiver: service-sdk doctor --webhook-url 'https://hooks.example.com/webhooks/<token>'",
    )
  const shown = withoutToken(url)
  const answer = await send(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': 'service-sdk-doctor' },
      body: '',
    },
    timeoutMs,
  )
  if ('error' in answer) return fail(CHECK, `${shown}: ${answer.error}`, NO_ANSWER[answer.kind])
  const { status } = answer
  const reached = `${shown}: answered ${status} to an empty non-JSON POST`
  if (status === 415 || status === 400 || status === 422) {
    const local = localOnly(url, openUrl)
    if (local) return warn(CHECK, `${reached} (reachable; nothing stored)`, local)
    return ok(CHECK, `${reached}: a receiver is there (nothing stored)`)
  }
  if (status === 404)
    return fail(
      CHECK,
      `${shown}: not found (404): nothing is served at this path, or its last segment is not the receiver's token`,
      "Check the path and the token the receiver was made with (the SDK's receiver answers 404 to an unknown token)",
    )
  if (status === 405)
    return fail(
      CHECK,
      `${shown}: refuses POST (405)`,
      'The service delivers with POST: route POST to the receiver',
    )
  if (status === 401 || status === 403)
    return fail(
      CHECK,
      `${shown}: asks for credentials (${status})`,
      'The service sends none: let the receiver authenticate by the token in its URL, not by a header',
    )
  if (status >= 300 && status < 400)
    return warn(
      CHECK,
      `${shown}: redirects (${status}) to ${withoutToken(answer.headers.get('location') ?? '')}`,
      'Give the service the final URL: a webhook sender may not follow redirects',
    )
  if (status >= 200 && status < 300)
    return warn(
      CHECK,
      `${reached}: it takes a body that is not JSON`,
      'Make sure this is the receiver, and that it checks its token and the body',
    )
  return fail(CHECK, `${shown}: the receiver failed (${status})`, "Check the receiver's logs")
}

const NO_ANSWER = {
  tls: "The service needs a certificate that a public CA signed, valid for the URL's host and not expired",
  refused: 'Nothing listens there: start the receiver, or check the host and port',
  dns: "The URL's host does not resolve: check its name",
  timeout: 'The receiver did not answer: check that it runs and that a firewall lets requests in',
  other: 'Check the URL and that the receiver runs',
} as const

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i

/** A receiver on this machine answers here, and never to a service elsewhere. */
function localOnly(url: string, openUrl: string | undefined): string | undefined {
  if (!openUrl || !URL.canParse(openUrl)) return undefined
  if (!LOOPBACK.test(new URL(url).hostname) || LOOPBACK.test(new URL(openUrl).hostname)) return undefined
  return 'The URL is on this machine, and the service is not: give the service a public URL (a tunnel, with listen --public-url)'
}
