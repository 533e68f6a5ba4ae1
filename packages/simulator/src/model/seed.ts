import { readFileSync } from 'node:fs'

/** Role ids and codes, in order (spec: `RoleCode`). */
export const ROLES = [
  { roleId: 1, roleCode: 'owner', roleName: 'Owner' },
  { roleId: 2, roleCode: 'admin', roleName: 'Admin' },
  { roleId: 3, roleCode: 'member_edit', roleName: 'Member (edit)' },
  { roleId: 4, roleCode: 'member_view', roleName: 'Member (view only)' },
  { roleId: 5, roleCode: 'member_upload_view', roleName: 'Member (upload, view)' },
  { roleId: 6, roleCode: 'member_upload_view_download', roleName: 'Member (upload, view, download)' },
] as const

export type RoleId = (typeof ROLES)[number]['roleId']

export interface SeedFolder {
  /** A decimal id; 19-digit ids exercise lossless handling in clients. */
  id: string
  name: string
  children?: SeedFolder[]
}

export interface SeedTeam {
  id: string
  orgNo: string
  name: string
  /** 0 free, 1 paid, 2 trial, 3 blank. */
  orgFeeType: 0 | 1 | 2 | 3
  /** Days from now until the space expires; negative means it expired that long ago. Default 365. */
  validDays?: number
  /** Verified email domains (area A whitelist). */
  whitelist: string[]
  /** Seat limit for create/invite; absent means unlimited. */
  seats?: number
  /** Whether the team may subscribe to asset events (spec: `EventSubscribeRequest`). Default true. */
  assetEvents?: boolean
  /** The team API key (area A). Generated when absent. */
  apiKey?: string
  folders?: SeedFolder[]
}

export interface SeedUser {
  id: string
  name: string
  email: string
  createdAt?: string
  /** Team memberships with the user's role in each. */
  memberships?: Array<{ teamId: string; roleId: RoleId }>
  /** The personal space's folders. */
  folders?: SeedFolder[]
}

export interface Seed {
  teams: SeedTeam[]
  users: SeedUser[]
  /** The user the open token and subscription API key belong to. */
  caller: {
    userId: string
    /** The team the subscription API key is scoped to (its capability decides asset-event subscriptions). */
    teamId: string
    openToken?: { type: string; value: string }
    apiKey?: string
  }
}

/** The built-in world: one caller in teams of every role, fee type and validity. */
export function defaultSeed(): Seed {
  const folders = (prefix: string, base: bigint): SeedFolder[] => [
    {
      id: String(base + 1n),
      name: `${prefix} Campaigns`,
      children: [
        { id: String(base + 2n), name: '2026 Spring' },
        { id: String(base + 3n), name: '2026 Autumn', children: [{ id: String(base + 4n), name: 'Drafts' }] },
      ],
    },
    { id: String(base + 5n), name: `${prefix} Brand assets` },
  ]
  return {
    teams: [
      {
        id: '1001',
        orgNo: 'ORG-ACME',
        name: 'Acme Design',
        orgFeeType: 1,
        whitelist: ['acme.com', 'acme.cn'],
        seats: 50,
        folders: folders('Acme', 1753946835010000000n),
      },
      {
        id: '1002',
        orgNo: 'ORG-GLOBEX',
        name: 'Globex Studio',
        orgFeeType: 2,
        whitelist: ['globex.com'],
        folders: folders('Globex', 1753946835020000000n),
      },
      {
        id: '1003',
        orgNo: 'ORG-INITECH',
        name: 'Initech Media',
        orgFeeType: 0,
        whitelist: ['initech.com'],
        assetEvents: false,
        folders: folders('Initech', 1753946835030000000n),
      },
      {
        id: '1004',
        orgNo: 'ORG-UMBRELLA',
        name: 'Umbrella Archive',
        orgFeeType: 1,
        validDays: -30,
        whitelist: ['umbrella.com'],
        folders: folders('Umbrella', 1753946835040000000n),
      },
      {
        id: '1005',
        orgNo: 'ORG-HOOLI',
        name: 'Hooli Uploads',
        orgFeeType: 3,
        whitelist: ['hooli.com'],
        folders: folders('Hooli', 1753946835050000000n),
      },
      {
        id: '1006',
        orgNo: 'ORG-STARK',
        name: 'Stark Library',
        orgFeeType: 1,
        whitelist: ['stark.com'],
        folders: folders('Stark', 1753946835060000000n),
      },
    ],
    users: [
      {
        id: '1673603133161799680',
        name: 'Ada Lovelace',
        email: 'ada@acme.com',
        createdAt: '2025-03-14T09:26:53Z',
        memberships: [
          { teamId: '1001', roleId: 1 },
          { teamId: '1002', roleId: 2 },
          { teamId: '1003', roleId: 3 },
          { teamId: '1004', roleId: 3 },
          { teamId: '1005', roleId: 5 },
          { teamId: '1006', roleId: 4 },
        ],
        folders: folders('My', 1753946835000000000n),
      },
      {
        id: '1673603133161799681',
        name: 'Grace Hopper',
        email: 'grace@acme.com',
        createdAt: '2025-04-01T08:00:00Z',
        memberships: [{ teamId: '1001', roleId: 6 }],
      },
      {
        id: '1673603133161799682',
        name: 'Contractor',
        email: 'contractor@gmail.com',
        createdAt: '2025-05-20T12:00:00Z',
        memberships: [{ teamId: '1001', roleId: 3 }],
      },
      // Registered but in no team: can be invited (acme.com is whitelisted).
      {
        id: '1673603133161799683',
        name: 'Linus',
        email: 'linus@acme.com',
        createdAt: '2025-06-02T10:30:00Z',
      },
      {
        id: '1673603133161799684',
        name: 'Margaret',
        email: 'margaret@acme.cn',
        createdAt: '2025-07-09T16:45:00Z',
      },
    ],
    caller: { userId: '1673603133161799680', teamId: '1001' },
  }
}

/** Read a seed file (JSON of the `Seed` shape). */
export function loadSeed(path: string): Seed {
  return JSON.parse(readFileSync(path, 'utf8')) as Seed
}
