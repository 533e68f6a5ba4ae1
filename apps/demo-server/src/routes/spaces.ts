import type { OrgSpace } from '@service-sdk/core'
import type { Space, SpacesResponse } from '@service-sdk/demo-web/api'
import { canWrite, type OpenClient } from '@service-sdk/open'
import { Hono } from 'hono'
import { z } from 'zod'
import { body, ID } from './request.ts'

const watchBody = z.object({ folderId: z.string().regex(ID, 'must be a folder id (decimal digits)') })
const EDITIONS: Record<number, string> = { 0: 'Free', 1: 'Paid', 2: 'Trial', 3: 'Blank' }

/**
 * The caller's spaces (area B) under `/api`: `GET /spaces` (teams, roles, validity and the write
 * rule) and `POST /folders/watch` (subscribe a folder's content callbacks).
 */
export function spaceRoutes(open: OpenClient, watchFolder: (folderId: string) => Promise<void>): Hono {
  const app = new Hono()
  app.get('/spaces', async (c) => {
    const orgs = await open.orgs({ signal: c.req.raw.signal })
    const now = Date.now()
    const personal: Space = { id: '1', kind: 'personal', name: 'Personal space', valid: true, writable: true }
    const spaces = [personal, ...orgs.map((org) => teamSpace(org, now))]
    return c.json({ spaces } satisfies SpacesResponse)
  })
  app.post('/folders/watch', async (c) => {
    const { folderId } = await body(c, watchBody)
    await watchFolder(folderId)
    return c.json({ watching: folderId })
  })
  return app
}

function teamSpace(org: OrgSpace, now: number): Space {
  const writable = canWrite(org, now)
  const readOnlyReason = writable
    ? undefined
    : org.roleCode === 'member_view'
      ? 'Your role is view-only'
      : !org.valid
        ? 'The team’s subscription is no longer valid'
        : 'The team’s subscription has expired'
  return {
    id: org.id,
    kind: 'team',
    name: org.name,
    orgNo: org.orgNo,
    edition: EDITIONS[org.orgFeeType] ?? `edition ${org.orgFeeType}`,
    role: org.roleName || org.roleCode,
    roleCode: org.roleCode,
    valid: org.valid,
    expiresAt: org.invalidTime,
    writable,
    ...(readOnlyReason ? { readOnlyReason } : {}),
  }
}
