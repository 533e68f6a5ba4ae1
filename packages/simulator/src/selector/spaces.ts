import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import { type Id, role, type SpaceKey } from '../model/state.ts'
import { canWrite } from '../open/orgs.ts'

/**
 * The orgId the selector reports for the personal space (spec: `MaterialSaveInput`: orgId is not
 * passed when the folder selector reported orgId 1). A seeded team with id 1 would be ambiguous: it is shown,
 * never selectable.
 */
export const PERSONAL_ORG_ID = '1'

export interface FolderNode {
  id: Id
  name: string
  children: FolderNode[]
}

/** One top-level entry of the selector's tree: a space and its folders. */
export interface SpaceView {
  /** What the page reports as `orgId`: `'1'` for the personal space, else the team id. */
  orgId: Id
  space: SpaceKey
  name: string
  /** The caller's role in a team space. */
  roleName?: string
  /** Why the caller may not upload here; absent when they may. */
  readOnly?: 'view-only' | 'expired' | 'reserved-id'
  folders: FolderNode[]
}

/** The user the selector page is signed in as: the seed's caller (the open token's owner). */
export function signedInUser(sim: SimContext): Id {
  const userId = sim.state.data.openTokens[0]?.userId
  if (!userId)
    throw new SimError('internal', 'The seed defines no caller: the selector page has nobody to sign in')
  return userId
}

/** The personal space first, then every team the user belongs to, in membership order. */
export function spacesFor(sim: SimContext, userId: Id): SpaceView[] {
  const folders = sim.state.data.folders
  const tree = (space: SpaceKey, parentId: Id): FolderNode[] =>
    folders
      .filter((f) => f.space === space && f.parentId === parentId)
      .map((f) => ({ id: f.id, name: f.name, children: tree(space, f.id) }))
  const user = sim.state.user(userId)
  const spaces: SpaceView[] = [
    {
      orgId: PERSONAL_ORG_ID,
      space: `u:${userId}`,
      name: user ? `My space (${user.name})` : 'My space',
      folders: tree(`u:${userId}`, '0'),
    },
  ]
  for (const m of sim.state.data.memberships.filter((m) => m.userId === userId)) {
    const team = sim.state.team(m.teamId)
    if (!team) continue
    const readOnly =
      team.id === PERSONAL_ORG_ID
        ? 'reserved-id'
        : canWrite(sim, team, userId)
          ? undefined
          : role(m.roleId).roleCode === 'member_view'
            ? 'view-only'
            : 'expired'
    spaces.push({
      orgId: team.id,
      space: `t:${team.id}`,
      name: team.name,
      roleName: role(m.roleId).roleName,
      ...(readOnly ? { readOnly } : {}),
      folders: tree(`t:${team.id}`, '0'),
    })
  }
  return spaces
}

/** Where an upload from the selector goes, after the write rule: what material-save needs. */
export interface UploadTarget {
  userId: Id
  /** `undefined` for the personal space: material-save is then called without orgId. */
  teamId: Id | undefined
  folderId: Id
}

const ID = /^\d{1,19}$/

function id(value: string | undefined, field: string): Id {
  if (value === undefined || value === '') throw new SimError('bad_request', `${field} is required`)
  if (!ID.test(value)) throw new SimError('bad_request', `${field} must be an integer id (decimal digits)`)
  return `${BigInt(value)}`
}

/**
 * The space and folder an upload names, refused unless the user may write there. The check
 * happens before any byte is read; material-save checks again (it is the authority).
 */
export function uploadTarget(
  sim: SimContext,
  userId: Id,
  orgIdText: string | undefined,
  folderIdText: string | undefined,
): UploadTarget {
  const orgId = id(orgIdText, 'orgId')
  const folderId = folderIdText === undefined || folderIdText === '' ? '0' : id(folderIdText, 'folderId')
  let space: SpaceKey
  let teamId: Id | undefined
  if (orgId === PERSONAL_ORG_ID) {
    space = `u:${userId}`
  } else {
    const team = sim.state.team(orgId)
    if (!team || !sim.state.membership(team.id, userId)) {
      throw new SimError('forbidden', `No permission: you are not a member of space ${orgId}`)
    }
    if (!canWrite(sim, team, userId)) {
      throw new SimError(
        'forbidden',
        `No permission to upload into ${team.name} (view-only role, or the space has expired)`,
      )
    }
    space = `t:${team.id}`
    teamId = team.id
  }
  if (folderId !== '0' && sim.state.folder(folderId)?.space !== space) {
    throw new SimError('not_found', `Folder ${folderId} not found in this space`)
  }
  return { userId, teamId, folderId }
}
