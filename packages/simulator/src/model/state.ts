import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROLES, type RoleId, type Seed, type SeedFolder } from './seed.ts'

/** Ids are decimal strings here, as in the SDK; responses write them as raw JSON integers. */
export type Id = string

export interface Team {
  id: Id
  orgNo: string
  name: string
  orgFeeType: 0 | 1 | 2 | 3
  /** Epoch ms when the space expires. */
  invalidTime: number
  whitelist: string[]
  seats: number | undefined
  assetEvents: boolean
  apiKey: string
}

export interface User {
  id: Id
  name: string
  email: string
  createdAt: string
}

export interface Membership {
  teamId: Id
  userId: Id
  roleId: RoleId
}

/** `u:<userId>` for a personal space, `t:<teamId>` for a team space. */
export type SpaceKey = `u:${string}` | `t:${string}`

export interface Folder {
  id: Id
  space: SpaceKey
  /** '0' for a folder at the root. */
  parentId: Id
  name: string
}

export interface Material {
  id: Id
  key: string
  bucket: string
  name: string
  extension: string
  size: number
  width?: number
  height?: number
  description?: string
  tags?: string[]
  link?: string
  score?: number
  folderId: Id
  /** Further folders the asset was added to (adding to a folder does not move it). */
  extraFolderIds?: Id[]
  space: SpaceKey
  ownerUserId: Id
  createUserId: Id
  createdAt: number
  /** Set when deleted: in the recycle bin, or gone for good. */
  deleted?: 'RECYCLE' | 'PERMANENT'
  /** Versions: the cover asset id of the version line this asset belongs to. */
  coverId?: Id
  version?: number
  /** A limited validity (a VALIDITY change with an end time): the clock counts it down. */
  validity?: { endTime: number; startTime?: number }
}

export interface StsCredential {
  accessKeyId: string
  accessKeySecret: string
  securityToken: string
  bucket: string
  dir: string
  userId: Id
  expiresAt: number
}

export interface FolderSubscription {
  apiKey: string
  folderId: Id
  callbackUrl: string
  eventType: string
}

export interface EventSubscription {
  apiKey: string
  callbackUrl: string
  eventType: string
}

export interface ImpersonationGrant {
  token: string
  userId: Id
  teamId: Id
  expiresAt: number
  callbackUrl: string
}

export interface ApiKey {
  key: string
  userId: Id
  teamId: Id
}

export interface OpenToken {
  type: string
  value: string
  userId: Id
}

/** Everything the simulated service knows. Plain data, so it can be saved as JSON. */
export interface StateData {
  teams: Team[]
  users: User[]
  memberships: Membership[]
  folders: Folder[]
  materials: Material[]
  sts: StsCredential[]
  folderSubscriptions: FolderSubscription[]
  eventSubscriptions: EventSubscription[]
  impersonations: ImpersonationGrant[]
  apiKeys: ApiKey[]
  openTokens: OpenToken[]
  /** Next id to hand out (decimal, beyond 2^53 on purpose). */
  nextId: string
}

export interface State {
  readonly data: StateData
  /** A fresh id beyond 2^53, so clients that round ids fail visibly. */
  nextId(): Id
  /** Persist (when the state has a directory). Call after each change. */
  commit(): void
  team(id: Id): Team | undefined
  user(id: Id): User | undefined
  userByEmail(email: string): User | undefined
  membership(teamId: Id, userId: Id): Membership | undefined
  folder(id: Id): Folder | undefined
  material(id: Id): Material | undefined
}

export const BUCKET = 'service-sim'

export function secret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

function flatten(folders: SeedFolder[] | undefined, space: SpaceKey, parentId: Id, out: Folder[]): void {
  for (const f of folders ?? []) {
    out.push({ id: f.id, space, parentId, name: f.name })
    flatten(f.children, space, f.id, out)
  }
}

function fromSeed(seed: Seed, now: number): StateData {
  const folders: Folder[] = []
  const teams = seed.teams.map((t): Team => {
    flatten(t.folders, `t:${t.id}`, '0', folders)
    return {
      id: t.id,
      orgNo: t.orgNo,
      name: t.name,
      orgFeeType: t.orgFeeType,
      invalidTime: now + (t.validDays ?? 365) * 86_400_000,
      whitelist: t.whitelist.map((d) => d.toLowerCase()),
      seats: t.seats,
      assetEvents: t.assetEvents ?? true,
      apiKey: t.apiKey ?? secret('team_sk_'),
    }
  })
  const memberships: Membership[] = []
  const users = seed.users.map((u): User => {
    flatten(u.folders, `u:${u.id}`, '0', folders)
    for (const m of u.memberships ?? [])
      memberships.push({ teamId: m.teamId, userId: u.id, roleId: m.roleId })
    return {
      id: u.id,
      name: u.name,
      email: u.email.toLowerCase(),
      createdAt: u.createdAt ?? new Date(now).toISOString(),
    }
  })
  const { caller } = seed
  return {
    teams,
    users,
    memberships,
    folders,
    materials: [],
    sts: [],
    folderSubscriptions: [],
    eventSubscriptions: [],
    impersonations: [],
    apiKeys: [{ key: caller.apiKey ?? secret('sk_'), userId: caller.userId, teamId: caller.teamId }],
    openTokens: [
      {
        type: caller.openToken?.type ?? 'Bearer',
        value: caller.openToken?.value ?? secret('ot_'),
        userId: caller.userId,
      },
    ],
    nextId: '1900000000000000001',
  }
}

/**
 * The state, from `seed`; with `dir`, loaded from and saved to `<dir>/state.json` so a
 * restarted simulator keeps everything (objects live beside it, in the object store's folder).
 */
export function createState(seed: Seed, options: { dir?: string | undefined; now?: number } = {}): State {
  const file = options.dir ? join(options.dir, 'state.json') : undefined
  let data: StateData
  if (file) {
    mkdirSync(options.dir as string, { recursive: true })
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as StateData
    } catch {
      data = fromSeed(seed, options.now ?? Date.now())
    }
  } else {
    data = fromSeed(seed, options.now ?? Date.now())
  }
  const state: State = {
    data,
    nextId() {
      const id = data.nextId
      data.nextId = String(BigInt(id) + 1n)
      return id
    },
    commit() {
      if (!file) return
      writeFileSync(`${file}.tmp`, JSON.stringify(data))
      renameSync(`${file}.tmp`, file)
    },
    team: (id) => data.teams.find((t) => t.id === id),
    user: (id) => data.users.find((u) => u.id === id),
    userByEmail: (email) => data.users.find((u) => u.email === email.toLowerCase()),
    membership: (teamId, userId) => data.memberships.find((m) => m.teamId === teamId && m.userId === userId),
    folder: (id) => data.folders.find((f) => f.id === id),
    material: (id) => data.materials.find((m) => m.id === id),
  }
  state.commit()
  return state
}

export function role(roleId: RoleId) {
  return ROLES.find((r) => r.roleId === roleId) ?? ROLES[3]
}
