import { SimError } from '../http/sim-error.ts'
import {
  ROLES,
  type RoleId,
  type Seed,
  type SeedFolder,
  type SeedTeam,
  type SeedUser,
} from '../model/seed.ts'

type RoleCode = (typeof ROLES)[number]['roleCode']

export interface TeamInput extends Partial<Omit<SeedTeam, 'id' | 'name'>> {
  id: string
  name: string
}

export interface UserInput extends Partial<Omit<SeedUser, 'id' | 'email' | 'memberships'>> {
  id: string
  email: string
  /** Team id → role (a role code such as `'owner'`, or its id 1-6). */
  teams?: Record<string, RoleCode | RoleId>
}

/** A typed, checked way to write a custom world for `startSimulator({ seed })` or `control.reset(seed)`. */
export interface SeedBuilder {
  team(team: TeamInput): SeedBuilder
  user(user: UserInput): SeedBuilder
  /** Whose open token and subscription API key these are, and the team the key is scoped to. */
  caller(caller: Seed['caller']): SeedBuilder
  /** The seed, after checking that every id is decimal and unique and every reference resolves. */
  build(): Seed
}

/** Start from nothing (`seedBuilder()`) or from a seed to extend (`seedBuilder(defaultSeed())`). */
export function seedBuilder(from?: Seed): SeedBuilder {
  const seed: Seed = from
    ? structuredClone(from)
    : { teams: [], users: [], caller: { userId: '', teamId: '' } }
  const builder: SeedBuilder = {
    team(input) {
      seed.teams.push({ orgNo: `ORG-${input.id}`, orgFeeType: 1, whitelist: [], ...input })
      return builder
    },
    user({ teams, ...input }) {
      const memberships = Object.entries(teams ?? {}).map(([teamId, role]) => ({
        teamId,
        roleId: roleId(role),
      }))
      seed.users.push({ name: input.email.split('@')[0] ?? input.email, ...input, memberships })
      return builder
    },
    caller(caller) {
      seed.caller = caller
      return builder
    },
    build() {
      check(seed)
      return structuredClone(seed)
    },
  }
  return builder
}

function roleId(role: RoleCode | RoleId): RoleId {
  const found = ROLES.find((r) => r.roleCode === role || r.roleId === role)
  if (!found)
    throw new SimError(
      'bad_request',
      `Unknown role ${String(role)}: one of ${ROLES.map((r) => r.roleCode).join(', ')}`,
    )
  return found.roleId
}

function check(seed: Seed): void {
  const seen = new Set<string>()
  const id = (value: string, what: string) => {
    if (!/^[1-9]\d{0,18}$/.test(value))
      throw new SimError('bad_request', `${what} id must be decimal digits, got "${value}"`)
    if (seen.has(`${what}:${value}`)) throw new SimError('bad_request', `${what} id ${value} is used twice`)
    seen.add(`${what}:${value}`)
  }
  const folders = (list: SeedFolder[] = []): void => {
    for (const f of list) {
      id(f.id, 'folder')
      folders(f.children)
    }
  }
  for (const t of seed.teams) {
    id(t.id, 'team')
    folders(t.folders)
  }
  for (const u of seed.users) {
    id(u.id, 'user')
    folders(u.folders)
    for (const m of u.memberships ?? [])
      if (!seen.has(`team:${m.teamId}`))
        throw new SimError('bad_request', `User ${u.id} is a member of unknown team ${m.teamId}`)
  }
  const { userId, teamId } = seed.caller
  if (!seen.has(`user:${userId}`))
    throw new SimError(
      'bad_request',
      `The caller ${userId || '(none)'} is not a user of the seed: call caller()`,
    )
  if (!seen.has(`team:${teamId}`))
    throw new SimError('bad_request', `The caller's team ${teamId || '(none)'} is not a team of the seed`)
}
