import { SelectorError } from './errors.ts'
import { toId } from './messages.ts'

/**
 * The `orgId` to pass to material-save for a folder the selector returned, or `undefined` to
 * omit it: the interface says not to pass orgId when the selector reported orgId 1 (the
 * personal space).
 */
export function orgIdForSave(orgId: string | number): string | undefined {
  const id = toId(orgId)
  if (id === undefined)
    throw new SelectorError('invalid-options', `orgId must be a non-negative integer id, got ${orgId}.`)
  return id === '1' ? undefined : id
}
