import type { ImpersonationResponse, MemberResponse, MembersResponse } from '@service-sdk/demo-web/api'
import { embedImpersonation, type TeamClient } from '@service-sdk/team'
import { Hono } from 'hono'
import { z } from 'zod'
import { DemoError } from '../errors.ts'
import type { Log } from '../log.ts'
import { body, ID } from './request.ts'

const emailBody = z.object({ email: z.string().trim().min(1, 'is required').max(254) })
const createBody = emailBody.extend({ password: z.string().min(1).max(128).optional() })
const impersonateBody = z.object({ expiryHours: z.number().positive().max(720).optional() })

/** Team administration (area A) under `/api/team`: the team API key stays on the server. */
export function teamRoutes(team: TeamClient, log: Log): Hono {
  const app = new Hono()
  app.get('/members', async (c) => {
    const members = await team.members.list({ signal: c.req.raw.signal })
    return c.json({ members } satisfies MembersResponse)
  })
  app.post('/members', async (c) => {
    const input = await body(c, createBody)
    const member = await team.members.create(
      input.password === undefined
        ? { email: input.email }
        : { email: input.email, password: input.password },
    )
    log.info(`team: created member ${member.id}`)
    return c.json({ member } satisfies MemberResponse, 201)
  })
  app.post('/invitations', async (c) => {
    const input = await body(c, emailBody)
    const member = await team.members.invite({ email: input.email })
    log.info(`team: invited member ${member.id}`)
    return c.json({ member } satisfies MemberResponse, 201)
  })
  app.post('/members/:id/impersonation', async (c) => {
    const id = c.req.param('id')
    if (!ID.test(id)) throw new DemoError(400, 'invalid_input', 'The member id must be decimal digits.')
    const input = await body(c, impersonateBody, {})
    const login = await team.members.impersonate(
      id,
      input.expiryHours === undefined ? {} : { expiryHours: input.expiryHours },
    )
    const { html: _html, ...iframe } = embedImpersonation(login, {
      title: 'Asset library, signed in as the member',
    })
    log.info(`team: impersonation login issued for member ${id}`)
    return c.json({
      member: { id },
      expiresAt: login.expiresAt,
      expiryHours: login.expiryHours,
      iframe,
    } satisfies ImpersonationResponse)
  })
  return app
}
