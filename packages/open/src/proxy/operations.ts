import { type CallOptions, parseServiceJson, type ValidationIssue } from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import { materialSaveRequestSchema } from '@service-sdk/core/schemas'
import type { OpenClient } from '../client-assembly.ts'
import { materialSaveOrgId } from '../org-id.ts'
import type { CallerDirs } from './caller-dir.ts'
import type { ProxyCredentials } from './credentials.ts'
import type { UploadProxyCaller } from './options.ts'
import { failure, success } from './responses.ts'
import { checkSignInput, signRequests } from './signing.ts'

/** What an operation of the proxy works with. */
export interface ProxyContext {
  /** The server's client: the token is in it and nowhere else. */
  open: OpenClient
  /** The server's STS credential, for signing: it never leaves the server. */
  credentials: ProxyCredentials
  dirs: CallerDirs
  signedUrlTtlSeconds: number
}

/** The calls a browser upload makes: two of the open API's, and the signing of object requests. */
export type ProxyOperation = 'org-info' | 'material-save' | 'oss-sign'

const PATH = /\/(?:open-api\/standard\/call\/service\/(org-info|material-save)|(oss)\/sign)\/?$/

/** The operation a request path names (the proxy may be mounted under any prefix), or undefined. */
export function operationOf(pathname: string): ProxyOperation | undefined {
  const match = PATH.exec(pathname)
  return match ? ((match[1] ?? 'oss-sign') as ProxyOperation) : undefined
}

/**
 * A request body as JSON, or the 400 answer. `parse` keeps every digit of an id by default; a
 * body that holds none (oss-sign's keys, upload ids and part numbers) takes `JSON.parse`.
 */
async function jsonBody(
  request: Request,
  what: string,
  parse: (text: string) => unknown = parseServiceJson,
): Promise<unknown> {
  try {
    return parse(await request.text())
  } catch {
    return failure(400, 'validation_error', `The ${what} body is not JSON.`, {
      issues: [{ path: '', message: 'must be a JSON object' }],
    })
  }
}

/** Collects the service's traceId of a call, to pass it on in the proxy's envelope. */
function tracing(signal?: AbortSignal): CallOptions & { traceId?: string | undefined } {
  const call: CallOptions & { traceId?: string | undefined } = {
    onResponse: (info) => {
      call.traceId = info.traceId
    },
  }
  if (signal) call.signal = signal
  return call
}

/**
 * oss-sign: the browser's object requests, each checked (an upload's requests only, each for a
 * key in the caller's own directory) and signed in its URL with the server's credential, or all
 * refused (403) with nothing signed. With no request: where the caller's objects go.
 */
export async function signObjectRequests(ctx: ProxyContext, caller: UploadProxyCaller, request: Request) {
  const body = await jsonBody(request, 'oss-sign', JSON.parse)
  if (body instanceof Response) return body
  const renew = (body as { renew?: unknown } | null)?.renew === true
  const credential = await ctx.credentials.get(renew)
  const own = await ctx.dirs.dirFor(credential.dir, caller.id)
  // A key under the caller's directory of this credential is the caller's at once (a prefix of
  // its own, which it knows: nothing to time); an older directory of the caller's is checked
  // against the mark, in constant time.
  const owns = (key: string) => key.startsWith(own) || ctx.dirs.owns(key, caller.id)
  const input = await checkSignInput(body, owns)
  if ('issues' in input) {
    const { issues } = input
    return input.outside
      ? failure(403, 'outside_upload_dir', "Only requests for the caller's own objects are signed.", {
          issues,
        })
      : failure(400, 'validation_error', 'The upload proxy signs the object requests of an upload only.', {
          issues,
        })
  }
  // Signed requests hold no ids: plain JSON.stringify (see `success`).
  return success(await signRequests(credential, input, own, ctx.signedUrlTtlSeconds), undefined, false)
}

const allows = (caller: UploadProxyCaller, orgId: unknown) =>
  caller.orgIds === undefined || caller.orgIds.some((id) => String(id) === String(orgId))

/** org-info: the spaces of the server's token, only those the caller may use. */
export async function listOrgs(ctx: ProxyContext, caller: UploadProxyCaller, request: Request) {
  const call = tracing(request.signal)
  const orgList = (await ctx.open.orgs(call)).filter((org) => allows(caller, org.id))
  return success({ orgList }, call.traceId)
}

/**
 * material-save: either body form, at most one request's worth of materials, every key in the
 * caller's directory, the space one the caller may use. Sent once, not tied to the browser's
 * connection: a save that may have reached the service is not cut off half-way.
 */
export async function saveMaterials(ctx: ProxyContext, caller: UploadProxyCaller, request: Request) {
  const body = await jsonBody(request, 'material-save')
  if (body instanceof Response) return body
  const input = parseInput(materialSaveRequestSchema, body, 'material-save request')
  const outside: ValidationIssue[] = []
  for (const [i, material] of input.materials.entries()) {
    if (!(await ctx.dirs.owns(material.key, caller.id))) {
      outside.push({ path: `materials.${i}.key`, message: "is not in the caller's upload directory" })
    }
  }
  if (outside.length > 0) {
    return failure(
      403,
      'outside_upload_dir',
      "Only objects uploaded into the caller's own directory can be saved.",
      {
        issues: outside,
      },
    )
  }
  const spaceId = materialSaveOrgId(input.orgId)
  if (spaceId !== undefined && !allows(caller, spaceId)) {
    return failure(403, 'space_not_allowed', `This caller may not save into space ${spaceId}.`, {
      issues: [{ path: 'orgId', message: 'is not one of the spaces this caller may use' }],
    })
  }
  const call = tracing()
  const materials = await ctx.open.materials.save(input, call)
  return success({ materials }, call.traceId)
}
