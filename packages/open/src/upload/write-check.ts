import { type CallOptions, type Id, type OrgSpace, ServicePermissionError } from '@service-sdk/core'
import { orgIdForSave } from '../org-id.ts'
import { canWrite } from '../write-rule.ts'

/**
 * The write rule (`canWrite`, on org-info's answer: see docs/service/uploads.md), checked before a
 * single byte is sent: material-save would refuse the asset anyway, after the whole file had gone
 * up. The personal space (no orgId, or the selector's 1) is always writable.
 */
export async function assertWritable(
  orgs: (call?: CallOptions) => Promise<OrgSpace[]>,
  orgId: Id | undefined,
  call: CallOptions,
): Promise<void> {
  const spaceId = orgIdForSave(orgId)
  if (spaceId === undefined) return
  const org = (await orgs(call)).find((o) => o.id === spaceId)
  if (org && canWrite(org)) return
  const reason = !org
    ? `you are not a member of space ${spaceId}`
    : org.roleCode === 'member_view'
      ? `your role in space "${org.name}" (${spaceId}) is view-only (member_view)`
      : `space "${org.name}" (${spaceId}) has expired`
  throw new ServicePermissionError({
    status: 403,
    code: 'not_writable',
    area: 'open',
    method: 'POST',
    path: '/open-api/standard/call/service/org-info',
    isRetryable: false,
    message: `Cannot upload into this space: ${reason}. Nothing was uploaded; choose a space from open.writableOrgs().`,
  })
}
