import type { Context } from 'hono'
import { Hono } from 'hono'
import { json } from '../http/envelopes.ts'
import { SimError, TEAM_STATUS } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import {
  discardBody,
  emptyBody,
  readSmallBody,
  requestBody,
  webStreamChunks,
} from '../oss/protocol/body-source.ts'
import { selectorClientScript } from './client-script.ts'
import { familiesOf, PAGE_CSP, renderSelectorPage, type SelectorFlow } from './page.ts'
import { PERSONAL_ORG_ID, signedInUser, spacesFor, uploadTarget } from './spaces.ts'
import { STYLES } from './styles.ts'
import { checkLink, fetchAddress, fileNameOf, storeAndSave, UploadRefused } from './upload.ts'

export interface SelectorRouteOptions {
  /** The largest file the page may upload, and the largest address it may fetch. Default 256 MiB. */
  maxUploadBytes?: number
  /** How long fetching an address (flow 1 with `isUrl`) may take. Default 30 s. */
  fetchTimeoutMs?: number
  /** The fetch used for addresses. Default: the global `fetch`. */
  fetch?: typeof fetch
}

export const DEFAULT_MAX_UPLOAD_BYTES = 256 * 1024 * 1024

const MAX_JSON_BYTES = 16 * 1024

/**
 * Area C: the folder selector page, mounted at /outer.
 *
 * - `GET /outerChoice?type=content[&file=empty]`: the page (flow 1 uploads, flow 2 only chooses).
 * - `GET /assets/selector.{js,css}`: its script and styles (the page's CSP allows nothing inline).
 * - `POST /api/upload?orgId&folderId&name[&link]`: flow 1, the body is one file's bytes.
 * - `POST /api/upload-url` `{url, orgId, folderId, link?}`: flow 1 with addresses, fetched here.
 *
 * The page is signed in as the seed's caller by fiat: no token, cookie or secret is involved.
 * The upload endpoints accept same-origin requests only, so other sites cannot upload as the
 * caller through a visitor's browser.
 */
export function selectorRoutes(sim: SimContext, options: SelectorRouteOptions = {}): Hono {
  const maxBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 30_000
  const app = new Hono()

  app.onError((error, c) => {
    const refusal = refusalOf(error)
    if (refusal.status >= 500 && !(error instanceof UploadRefused))
      sim.logger.error('selector failure', { error })
    // Let the browser finish sending before it reads the refusal (a cut upload shows as a network error).
    return discardBody(c.req.raw, c.env, 1024 * 1024).then(() =>
      json({ error: refusal.message }, refusal.status),
    )
  })

  app.get('/outerChoice', (c) => {
    const type = c.req.query('type')
    if (type !== 'content') {
      return c.text(
        'The selector page needs ?type=content (flow 1), or ?type=content&file=empty (flow 2).',
        400,
        {
          'cache-control': 'no-store',
        },
      )
    }
    const flow: SelectorFlow = c.req.query('file') === 'empty' ? 'choose' : 'upload'
    const userId = signedInUser(sim)
    const html = renderSelectorPage({
      flow,
      families: familiesOf(sim.quirks.selectorFamily),
      ids: sim.quirks.selectorIds === 'numbers' ? 'numbers' : 'exact',
      personalOrg: sim.quirks.selectorPersonalOrg === 'absent' ? 'absent' : 'one',
      userName: sim.state.user(userId)?.name ?? 'Caller',
      spaces: spacesFor(sim, userId),
      maxUploadBytes: maxBytes,
    })
    return c.html(html, 200, {
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // The tree shows the current state: never from a cache.
      'cache-control': 'no-store',
    })
  })

  app.get('/assets/selector.js', async () => asset(await selectorClientScript(), 'text/javascript'))
  app.get('/assets/selector.css', () => asset(STYLES, 'text/css'))

  app.post('/api/upload', async (c) => {
    sameOriginOnly(c)
    const userId = signedInUser(sim)
    const target = uploadTarget(sim, userId, c.req.query('orgId'), c.req.query('folderId'))
    const fileName = c.req.query('name')
    if (!fileName) throw new SimError('bad_request', 'name (the file name) is required')
    const link = checkLink(c.req.query('link'))
    const saved = await storeAndSave(
      sim,
      target,
      {
        fileName,
        contentType: c.req.header('content-type') ?? '',
        body: requestBody(c.req.raw, c.env),
        contentLength: contentLengthOf(c.req.header('content-length')),
        link,
      },
      { maxBytes, origin: new URL(c.req.url).origin },
    )
    return json({ material: materialJson(saved, target) }, 201)
  })

  app.post('/api/upload-url', async (c) => {
    sameOriginOnly(c)
    const body = await smallJson(c.req.raw, c.env)
    const userId = signedInUser(sim)
    const target = uploadTarget(sim, userId, idText(body.orgId), idText(body.folderId))
    const link = checkLink(typeof body.link === 'string' ? body.link : undefined)
    const { url, response } = await fetchAddress(body.url, {
      fetch: options.fetch ?? fetch,
      timeoutMs: fetchTimeoutMs,
      signal: c.req.raw.signal,
    })
    const contentType = response.headers.get('content-type') ?? ''
    const saved = await storeAndSave(
      sim,
      target,
      {
        fileName: fileNameOf(url, contentType),
        contentType,
        body: response.body ? webStreamChunks(response.body) : emptyBody(),
        contentLength: contentLengthOf(response.headers.get('content-length') ?? undefined),
        link,
      },
      { maxBytes, origin: new URL(c.req.url).origin },
    )
    return json({ material: materialJson(saved, target) }, 201)
  })

  return app
}

function asset(text: string, type: string): Response {
  return new Response(text, {
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    },
  })
}

function refusalOf(error: unknown): { status: number; message: string } {
  if (error instanceof UploadRefused) return { status: error.status, message: error.message }
  if (error instanceof SimError) {
    return {
      status: TEAM_STATUS[error.kind],
      message: error.kind === 'internal' ? 'Internal error' : error.message,
    }
  }
  return { status: 500, message: 'Internal error' }
}

/**
 * The upload endpoints act as the signed-in caller without any credential, so only the page
 * itself may call them: a browser names the caller's origin (Origin, Sec-Fetch-Site) on every
 * cross-origin POST. Requests without either header (curl, tests) are not from a browser page.
 */
function sameOriginOnly(c: Context): void {
  const origin = c.req.header('origin')
  const site = c.req.header('sec-fetch-site')
  if (
    (origin !== undefined && origin !== new URL(c.req.url).origin) ||
    (site !== undefined && site !== 'same-origin')
  ) {
    throw new SimError('forbidden', 'Uploads are accepted from the selector page itself only (same origin)')
  }
}

function contentLengthOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined
  if (!/^\d{1,15}$/.test(header)) throw new UploadRefused(400, 'Content-Length must be a number of bytes')
  return Number(header)
}

async function smallJson(request: Request, env: unknown): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new SimError('bad_request', 'Content-Type must be application/json')
  }
  const bytes = await readSmallBody(requestBody(request, env), MAX_JSON_BYTES)
  if (!bytes) throw new UploadRefused(413, `The request body is larger than ${MAX_JSON_BYTES} bytes`)
  let body: unknown
  try {
    body = JSON.parse(bytes.toString('utf8'))
  } catch {
    throw new SimError('bad_request', 'Malformed JSON body')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SimError('bad_request', 'The body must be a JSON object')
  }
  return body as Record<string, unknown>
}

/** Ids in the JSON body: decimal strings (every digit), or numbers small enough to be exact. */
function idText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  if (typeof value === 'string') return value
  return 'invalid'
}

function materialJson(
  m: { id: string; name: string; extension: string; size: number; accessUrl: string },
  target: { folderId: string; teamId: string | undefined },
) {
  return {
    id: m.id,
    name: m.name,
    extension: m.extension,
    size: m.size,
    accessUrl: m.accessUrl,
    folderId: target.folderId,
    orgId: target.teamId ?? PERSONAL_ORG_ID,
  }
}
