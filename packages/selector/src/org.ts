import { invalid } from './errors.ts'
import { toId } from './messages.ts'

/**
 * The `orgId` to pass to material-save for a folder the selector returned, or `undefined` to
 * omit it: the personal space, which the page reports as orgId 1 (not to be passed on) or
 * without an orgId (`null`).
 */
export function orgIdForSave(orgId: string | number | null): string | undefined {
  if (orgId === null) return undefined
  const id = toId(orgId)
  if (id === undefined) invalid('orgId', `must be an integer id, got ${orgId}`)
  return id === '1' ? undefined : id
}
