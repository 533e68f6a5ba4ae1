import type { SimContext } from '../model/context.ts'
import { type Id, role, type Team } from '../model/state.ts'

/** org-info: every team space the user belongs to, with the user's role in it. */
export function orgList(sim: SimContext, userId: Id) {
  return sim.state.data.memberships
    .filter((m) => m.userId === userId)
    .flatMap((m) => {
      const team = sim.state.team(m.teamId)
      if (!team) return []
      const r = role(m.roleId)
      return [
        {
          id: BigInt(team.id),
          orgNo: team.orgNo,
          name: team.name,
          orgFeeType: team.orgFeeType,
          roleId: r.roleId,
          roleCode: r.roleCode,
          roleName: r.roleName,
          valid: team.invalidTime > sim.now(),
          invalidTime: team.invalidTime,
        },
      ]
    })
}

/** The write rule (spec: `OrgSpace`): not member_view, valid, and invalidTime in the future. */
export function canWrite(sim: SimContext, team: Team, userId: Id): boolean {
  const membership = sim.state.membership(team.id, userId)
  if (!membership) return false
  return role(membership.roleId).roleCode !== 'member_view' && team.invalidTime > sim.now()
}
