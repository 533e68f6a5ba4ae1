import type { Id } from '@service-sdk/core'

/**
 * The folder selector reports orgId 1 for the personal space, and interface §4 says not to pass
 * it to material-save: the personal space is the one saved to when orgId is omitted.
 */
export function orgIdForSave(orgId: Id | number | null | undefined): Id | undefined {
  if (orgId === null || orgId === undefined) return undefined
  const id = String(orgId)
  return id === '1' ? undefined : id
}
