import type { OrgSpace } from '@service-sdk/core'
import { type Finding, fail, ok, skip, warn } from './finding.ts'
import type { OpenTokenCheck } from './service.ts'

const CHECK = 'spaces'
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Why the write rule (`canWrite`, docs/service/spaces.md) refuses a space, for people. */
function whyNotWritable(org: OrgSpace, now: number): string {
  if (org.roleCode === 'member_view') return 'view-only role, member_view'
  if (org.invalidTime <= now) return `expired ${day(org.invalidTime)}`
  return 'not valid'
}

const named = (org: OrgSpace) => `${org.id} ${org.name}`

/**
 * The spaces of the open token's user and whether each is writable now. With `orgId` (the space
 * an upload goes to) that space must be writable; without, at least one team space should be.
 */
export async function spacesFinding(token: OpenTokenCheck, orgId: string | undefined): Promise<Finding> {
  if (!token.orgs) return skip(CHECK, 'not checked: needs an accepted open token (see open-token)')
  const { canWrite } = await import('@service-sdk/open')
  const now = Date.now()
  const writable = token.orgs.filter((o) => canWrite(o, now))
  const refused = token.orgs.filter((o) => !canWrite(o, now))
  const summary = [
    `${writable.length} of ${token.orgs.length} team spaces writable${writable.length ? `: ${writable.map(named).join(', ')}` : ''}`,
    ...(refused.length
      ? [`not writable: ${refused.map((o) => `${named(o)} [${whyNotWritable(o, now)}]`).join(', ')}`]
      : []),
  ].join('; ')
  const choose = writable.length
    ? `Upload with --org one of ${writable.map((o) => o.id).join(', ')}`
    : 'Uploads can go to the personal space only'
  if (orgId !== undefined) return chosen(token.orgs, orgId, now, choose)
  if (token.orgs.length === 0)
    return warn(
      CHECK,
      "the token's user is in no team space: uploads go to the personal space",
      "Add the user to the team (service-sdk members invite <email>) if uploads belong in the team's space",
    )
  if (writable.length === 0)
    return warn(
      CHECK,
      summary,
      'No team space takes uploads: ask an owner or admin for a role that may upload, or renew the space in the team dashboard',
    )
  return ok(CHECK, summary)
}

/** `--org`: the space uploads go to. `1` is the personal space (the selector's id for it). */
function chosen(orgs: OrgSpace[], orgId: string, now: number, choose: string): Finding {
  if (orgId === '1') return ok(CHECK, 'the personal space (1): always writable')
  const org = orgs.find((o) => String(o.id) === orgId)
  if (!org)
    return fail(
      CHECK,
      `space ${orgId}: the token's user is not a member`,
      `Invite the user into the space's team, or choose a space from \`service-sdk spaces\`. ${choose}`,
    )
  if (org.roleCode === 'member_view')
    return fail(
      CHECK,
      `space ${named(org)}: not writable: ${whyNotWritable(org, now)}`,
      `Ask an owner or admin of the team for a role that may upload. ${choose}`,
    )
  if (org.invalidTime <= now || org.valid !== true)
    return fail(
      CHECK,
      `space ${named(org)}: not writable: ${whyNotWritable(org, now)}`,
      `The team's owner renews the space in the team dashboard. ${choose}`,
    )
  return ok(CHECK, `space ${named(org)}: writable (${org.roleCode}, valid until ${day(org.invalidTime)})`)
}
