import { parseJsonWithBigInts } from '@service-sdk/core/internal'
import { SimError } from './sim-error.ts'

const MAX_BODY = 1024 * 1024

/**
 * Read a JSON object body as the service does: `Content-Type: application/json` required when
 * there is a body (docs/service-behaviour.md, "Requests"), parsed losslessly so a rounded id shows up as a wrong id.
 */
export async function readJson(
  request: Request,
  area: 'team' | 'open',
  options: { optional?: boolean } = {},
): Promise<Record<string, unknown>> {
  const text = await request.text()
  if (text.length > MAX_BODY) throw new SimError('bad_request', 'Request body too large')
  if (text.trim() === '') {
    if (options.optional) return {}
    throw new SimError('bad_request', 'Request body is required')
  }
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new SimError('bad_request', `Content-Type must be application/json (${area} API)`)
  }
  let body: unknown
  try {
    // As the service's (Java) parser reads it: an integer too large for a double keeps every digit
    // (a bigint), and a string stays a string, so an id sent as "123" is told apart from 123.
    body = parseJsonWithBigInts(text)
  } catch {
    throw new SimError('bad_request', 'Malformed JSON body')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SimError('bad_request', 'The body must be a JSON object')
  }
  return body as Record<string, unknown>
}
