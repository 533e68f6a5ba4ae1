import {
  type CallOptions,
  materialSaveRequestSchema,
  parseServiceJson,
  type ValidationIssue,
} from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import type { OpenClient } from '../client.ts'
import { materialSaveOrgId } from '../org-id.ts'
import type { CallerDirs } from './caller-dir.ts'
import type { UploadProxyCaller } from './options.ts'
import { failure, success } from './responses.ts'

/** What an operation of the proxy works with. */
export interface ProxyContext {
  /** The server's client: the token is in it and nowhere else. */
  open: OpenClient
  dirs: CallerDirs
}

/** The calls an upload makes, by the last segment of the open API path. */
export type ProxyOperation = 'sts-tmp' | 'org-info' | 'material-save'

const PATH = /\/open-api\/standard\/call\/service\/(sts-tmp|org-info|material-save)\/?$/

/** The operation a request path names (the proxy may be mounted under any prefix), or undefined. */
export function operationOf(pathname: string): ProxyOperation | undefined {
  return PATH.exec(pathname)?.[1] as ProxyOperation | undefined
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

/** sts-tmp: the temporary credential, its directory narrowed to the caller's; nothing else of the answer. */
export async function issueCredential(ctx: ProxyContext, caller: UploadProxyCaller, request: Request) {
  const call = tracing(request.signal)
  const c = await ctx.open.credentials(call)
  const credential = {
    endPoint: c.endPoint,
    bucket: c.bucket,
    dir: await ctx.dirs.dirFor(c.dir, caller.id),
    accessKeyId: c.accessKeyId,
    accessKeySecret: c.accessKeySecret,
    securityToken: c.securityToken,
  }
  return success(credential, call.traceId)
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
  let body: unknown
  try {
    body = parseServiceJson(await request.text())
  } catch {
    return failure(400, 'validation_error', 'The material-save body is not JSON.', {
      issues: [{ path: '', message: 'must be a JSON object' }],
    })
  }
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
