import type { Id } from '@service-sdk/core'

/**
 * The `orgId` material-save is sent: none for the personal space. The folder selector reports
 * the personal space as orgId 1, which the service does not take as a space id
 * (docs/service/spaces.md); it is the space a save without orgId goes to. `materials.save()` and
 * the upload's write check apply this to every orgId they are given.
 */
export function materialSaveOrgId(orgId: Id | number | null | undefined): Id | undefined {
  if (orgId === null || orgId === undefined) return undefined
  const id = String(orgId)
  return id === '1' ? undefined : id
}
