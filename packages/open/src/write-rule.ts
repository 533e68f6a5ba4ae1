import type { OrgSpace } from '@service-sdk/core'

/**
 * The write rule (docs/service/spaces.md): the caller may write into a team space only when its
 * role is not view-only, the space is valid, and it has not expired yet.
 */
export function canWrite(
  org: Pick<OrgSpace, 'roleCode' | 'valid' | 'invalidTime'>,
  now: number | Date = Date.now(),
): boolean {
  const at = typeof now === 'number' ? now : now.getTime()
  return org.roleCode !== 'member_view' && org.valid === true && org.invalidTime > at
}

/** The spaces among `orgs` the caller may upload into now. */
export function writableOrgs<T extends Pick<OrgSpace, 'roleCode' | 'valid' | 'invalidTime'>>(
  orgs: readonly T[],
  now: number | Date = Date.now(),
): T[] {
  return orgs.filter((org) => canWrite(org, now))
}
