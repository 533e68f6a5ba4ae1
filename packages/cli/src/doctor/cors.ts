import { type Finding, fail, ok, type Status, skip } from './finding.ts'
import { send } from './http.ts'
import { type Bucket, objectUrl } from './oss-request.ts'
import type { OpenTokenCheck } from './service.ts'
import type { StorageCheck } from './storage.ts'

const CHECK = 'cors'
/** What a browser upload does: multipart initiates and completes with POST, aborts with DELETE. */
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD']
/** The rule a browser upload needs (packages/open/README.md, "Browsers"). */
const RULE =
  'AllowedMethod GET, PUT, POST, DELETE, HEAD; AllowedHeader *; ExposeHeader ETag, x-oss-request-id, x-oss-hash-crc64ecma'

/** The bucket's CORS answer for each page origin (`--origin`), or why it was not checked. */
export function corsFindings(
  origins: string[],
  token: OpenTokenCheck,
  storage: StorageCheck,
  timeoutMs: number,
): Promise<Finding[]> {
  if (origins.length === 0)
    return Promise.resolve([
      skip(
        CHECK,
        'not checked: no --origin given',
        'For pages that upload from a browser: service-sdk doctor --origin https://app.example.com',
      ),
    ])
  const { bucket } = storage
  if (!bucket) {
    // Asked for, and cannot run: without an open token nothing says where the bucket is.
    const unconfigured = !token.open && token.finding.status === 'warn'
    return Promise.resolve(
      origins.map((origin) =>
        unconfigured
          ? fail(
              CHECK,
              `${origin}: needs the open API token to find the bucket (sts-tmp)`,
              'Set SERVICE_OPEN_URL and SERVICE_OPEN_TOKEN',
            )
          : skip(CHECK, `${origin}: not checked: needs a credential from sts-tmp (see sts-write)`),
      ),
    )
  }
  return Promise.all(origins.map((origin) => corsFinding(bucket, origin, timeoutMs)))
}

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)

interface Problem {
  status: Status
  text: string
  fix: string
}

/**
 * A preflight as a browser sends it before a part's PUT (Origin, Access-Control-Request-Method
 * PUT, Access-Control-Request-Headers content-type), and what its answer allows and exposes.
 */
async function corsFinding(bucket: Bucket, origin: string, timeoutMs: number): Promise<Finding> {
  const answer = await send(
    objectUrl(bucket, `${bucket.dir}service-sdk-doctor-cors`),
    {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    },
    timeoutMs,
  )
  if ('error' in answer)
    return fail(
      CHECK,
      `${origin}: the preflight to ${bucket.origin} got no answer: ${answer.error}`,
      "sts-tmp's endPoint must be reachable from here: check the network",
    )
  const allowed = answer.headers.get('access-control-allow-origin')
  if (allowed !== origin && allowed !== '*')
    return fail(
      CHECK,
      `${origin}: no CORS rule of bucket ${bucket.name} lets this page PUT with a Content-Type header (the preflight was answered ${answer.status} ${allowed ? `allowing only ${allowed}` : 'without Access-Control-Allow-Origin'})`,
      `Add a CORS rule to bucket ${bucket.name}: AllowedOrigin ${origin}; ${RULE}`,
    )
  const problems = problemsOf(answer.headers)
  if (problems.length === 0)
    return ok(
      CHECK,
      `${origin}: allowed to PUT with Content-Type; methods ${METHODS.join(', ')}; ETag and x-oss-hash-crc64ecma exposed`,
    )
  return {
    check: CHECK,
    status: problems.some((p) => p.status === 'fail') ? 'fail' : 'warn',
    detail: `${origin}: ${problems.map((p) => p.text).join('; ')}`,
    advice: `In the CORS rule of bucket ${bucket.name} for ${origin}: ${problems.map((p) => p.fix).join('; ')}`,
  }
}

function problemsOf(headers: Headers): Problem[] {
  const problems: Problem[] = []
  const methods = list(headers.get('access-control-allow-methods'))
  const lacking = METHODS.filter((m) => !methods.includes(m.toLowerCase()))
  if (lacking.length)
    problems.push({
      status: 'fail',
      text: `${lacking.join(', ')} not allowed (multipart uploads need every one)`,
      fix: `add ${lacking.join(', ')} to AllowedMethod`,
    })
  const requestHeaders = list(headers.get('access-control-allow-headers'))
  if (!requestHeaders.includes('content-type') && !requestHeaders.includes('*'))
    problems.push({ status: 'fail', text: 'the Content-Type header not allowed', fix: 'set AllowedHeader *' })
  const exposed = list(headers.get('access-control-expose-headers'))
  if (!exposed.includes('etag'))
    problems.push({
      status: 'fail',
      text: 'ETag not exposed (multipart uploads from this page fail)',
      fix: 'add ETag to ExposeHeader',
    })
  if (!exposed.includes('x-oss-hash-crc64ecma'))
    problems.push({
      status: 'warn',
      text: 'x-oss-hash-crc64ecma not exposed (browser uploads skip the integrity check)',
      fix: 'add x-oss-hash-crc64ecma to ExposeHeader',
    })
  return problems
}
