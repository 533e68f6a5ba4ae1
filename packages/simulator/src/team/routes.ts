import { randomBytes } from 'node:crypto'
import { MAX_EXPIRY_HOURS } from '@service-sdk/core'
import { type Context, Hono, type Next } from 'hono'
import { teamError, teamOk } from '../http/envelopes.ts'
import { readJson } from '../http/request-body.ts'
import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { Team, User } from '../model/state.ts'

const EMAIL = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/

/** Area A: the team API under /api/team, strict about what spec/openapi.yaml says of it. */
export function teamRoutes(sim: SimContext): Hono<{ Variables: { team: Team } }> {
  const app = new Hono<{ Variables: { team: Team } }>()

  app.onError((error) => {
    if (error instanceof SimError) return teamError(error.kind, error.message)
    sim.logger.error('team API failure', { error })
    return teamError('internal', 'Internal server error')
  })

  app.use('*', teamAuth(sim))

  app.get('/members', (c) => {
    const team = c.get('team')
    const members = sim.state.data.memberships
      .filter((m) => m.teamId === team.id)
      .map((m) => sim.state.user(m.userId))
      .filter((u): u is User => u !== undefined)
      .map((u) => ({ id: BigInt(u.id), name: u.name, email: u.email, createdAt: u.createdAt }))
    return teamOk(members)
  })

  app.post('/members/create', async (c) => {
    const team = c.get('team')
    const body = await readJson(c.req.raw, 'team')
    const email = checkEmail(body.email, team)
    if (body.password !== undefined && (typeof body.password !== 'string' || body.password === '')) {
      throw new SimError('bad_request', 'Invalid password: a non-empty string (omit it to set none)')
    }
    if (sim.state.userByEmail(email)) {
      throw new SimError('conflict', `User already exists: ${email}`)
    }
    checkSeats(sim, team)
    const user: User = {
      id: sim.state.nextId(),
      name: email.split('@')[0] as string,
      email,
      createdAt: new Date(sim.now()).toISOString(),
    }
    sim.state.data.users.push(user)
    sim.state.data.memberships.push({ teamId: team.id, userId: user.id, roleId: 3 })
    sim.state.commit()
    return teamOk(memberOf(user, team))
  })

  app.post('/members/invite', async (c) => {
    const team = c.get('team')
    const body = await readJson(c.req.raw, 'team')
    const email = checkEmail(body.email, team)
    const user = sim.state.userByEmail(email)
    if (!user) throw new SimError('not_found', `No registered account for ${email}`)
    if (sim.state.membership(team.id, user.id)) {
      throw new SimError('conflict', `${email} is already a member of this team`)
    }
    checkSeats(sim, team)
    sim.state.data.memberships.push({ teamId: team.id, userId: user.id, roleId: 3 })
    sim.state.commit()
    return teamOk(memberOf(user, team))
  })

  app.post('/members/:userId/impersonation', async (c) => {
    const team = c.get('team')
    const userId = c.req.param('userId')
    if (!/^[1-9]\d{0,18}$/.test(userId)) throw new SimError('bad_request', `Invalid user id: ${userId}`)
    const body = await readJson(c.req.raw, 'team', { optional: true })
    const user = sim.state.user(userId)
    if (!user || !sim.state.membership(team.id, user.id))
      throw new SimError('not_found', 'Member not found in this team')
    checkWhitelist(user.email, team)
    const { expiryHours, callbackUrl } = impersonationRequest(body)
    const token = randomBytes(24).toString('base64url')
    const expiresAt = sim.now() + expiryHours * 3_600_000
    sim.state.data.impersonations.push({ token, userId: user.id, teamId: team.id, expiresAt, callbackUrl })
    sim.state.commit()
    const base = new URL(c.req.url).origin
    const loginUrl = `${base}/auth/impersonation-login?token=${token}&callbackUrl=${encodeURIComponent(callbackUrl)}`
    return teamOk({ loginUrl, expiryHours, expiresAt: new Date(expiresAt).toISOString(), callbackUrl })
  })

  return app
}

/** The API key of a team, from `Authorization: Bearer <key>`, with the live service's three 401 texts. */
function teamAuth(sim: SimContext) {
  return async (c: Context<{ Variables: { team: Team } }>, next: Next) => {
    // The live service's three 401 texts: no key, a header not of the form `Bearer <key>`, an unknown key.
    const header = (c.req.header('authorization') ?? '').trim()
    if (header === '' || /^Bearer$/i.test(header))
      return teamError('unauthorized', 'Unauthorized: API Key is required')
    const key = /^Bearer (\S+)$/i.exec(header)?.[1]
    if (!key) return teamError('unauthorized', 'Unauthorized: Invalid authorization format')
    const team = sim.state.data.teams.find((t) => t.apiKey === key)
    if (!team) return teamError('unauthorized', 'Unauthorized: Invalid API key')
    c.set('team', team)
    await next()
  }
}

/** An impersonation request's options, with the service's defaults (24 hours, `/`). */
function impersonationRequest(body: Record<string, unknown>): { expiryHours: number; callbackUrl: string } {
  const expiryHours = body.expiryHours ?? 24
  if (
    typeof expiryHours !== 'number' ||
    !Number.isFinite(expiryHours) ||
    expiryHours <= 0 ||
    expiryHours > MAX_EXPIRY_HOURS
  ) {
    throw new SimError(
      'bad_request',
      `Invalid expiryHours: a number of hours above 0 and at most ${MAX_EXPIRY_HOURS}`,
    )
  }
  const callbackUrl = body.callbackUrl ?? '/'
  if (typeof callbackUrl !== 'string' || callbackUrl === '') {
    throw new SimError('bad_request', 'Invalid callbackUrl')
  }
  return { expiryHours, callbackUrl }
}

function memberOf(user: User, team: Team) {
  return {
    id: BigInt(user.id),
    email: user.email,
    name: user.name,
    teamId: BigInt(team.id),
    createdAt: user.createdAt,
  }
}

function checkEmail(value: unknown, team: Team): string {
  if (typeof value !== 'string' || !EMAIL.test(value.trim())) {
    throw new SimError('bad_request', 'Invalid email address')
  }
  const email = value.trim().toLowerCase()
  checkWhitelist(email, team)
  return email
}

function checkWhitelist(email: string, team: Team): void {
  const domain = EMAIL.exec(email)?.[1]?.toLowerCase() ?? ''
  if (!team.whitelist.includes(domain)) {
    throw new SimError('forbidden', `Email domain '${domain}' is not in the team's verified domain whitelist`)
  }
}

function checkSeats(sim: SimContext, team: Team): void {
  if (team.seats === undefined) return
  const used = sim.state.data.memberships.filter((m) => m.teamId === team.id).length
  if (used >= team.seats)
    throw new SimError('forbidden', `No seats available: the team uses all ${team.seats} seats`)
}
