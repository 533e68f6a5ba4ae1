import type { CallOptions, Id, OrgSpace } from '@service-sdk/core'
import { SpaceNotWritableError } from '../../errors.ts'
import { materialSaveOrgId } from '../../org-id.ts'
import { canWrite } from '../../write-rule.ts'

/**
 * The write rule (`canWrite`, docs/service/spaces.md), checked before a single byte is sent: material-save would
 * refuse the asset anyway, after the whole file had gone up. The personal space (no orgId, or the
 * selector's 1) is always writable.
 */
export async function assertWritable(
  orgs: (call?: CallOptions) => Promise<OrgSpace[]>,
  orgId: Id | undefined,
  call: CallOptions,
): Promise<void> {
  const spaceId = materialSaveOrgId(orgId)
  if (spaceId === undefined) return
  const org = (await orgs(call)).find((o) => o.id === spaceId)
  if (org && canWrite(org)) return
  const [reason, why] = !org
    ? (['not_member', `you are not a member of space ${spaceId}`] as const)
    : org.roleCode === 'member_view'
      ? (['view_only', `your role in space "${org.name}" (${spaceId}) is view-only (member_view)`] as const)
      : (['expired', `space "${org.name}" (${spaceId}) has expired`] as const)
  throw new SpaceNotWritableError(
    spaceId,
    reason,
    `Cannot upload into this space: ${why}. Nothing was uploaded; choose a space from open.writableOrgs().`,
  )
}
