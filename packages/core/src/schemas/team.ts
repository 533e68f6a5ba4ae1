import { z } from 'zod'
import { MAX_EXPIRY_HOURS } from '../limits.ts'
import { idSchema } from './ids.ts'

// Responses (area A): tolerant, unknown fields kept.

/** A list item of GET /api/team/members. */
export const teamMemberSchema = z.looseObject({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  createdAt: z.string(),
})

/** A member returned by create and invite: a team member plus `teamId`. */
export const createdMemberSchema = z.looseObject({
  id: idSchema,
  email: z.string(),
  name: z.string(),
  teamId: idSchema,
  createdAt: z.string(),
})

/** The impersonation result. */
export const impersonationSchema = z.looseObject({
  loginUrl: z.string(),
  expiryHours: z.number(),
  expiresAt: z.string(),
  callbackUrl: z.string(),
})

// Inputs (area A): strict, checked before anything is sent.

const email = z.email({
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be an email address'),
})

/** `team.members.create(...)`: the email domain must be on the team's verified whitelist (checked by the service). */
export const createMemberInputSchema = z.strictObject({
  email,
  password: z.string().min(1, 'must not be empty').exactOptional(),
})

/** `team.members.invite(...)`: the user must already be registered (checked by the service). */
export const inviteMemberInputSchema = z.strictObject({ email })

/**
 * Options of `team.members.impersonate(userId, options)`: their shape and ranges. Which callback
 * URLs are allowed (no open redirect) is the client's rule.
 */
export const impersonationRequestSchema = z.strictObject({
  expiryHours: z
    .number({ error: 'must be a number of hours' })
    .positive('must be a positive number of hours')
    .max(MAX_EXPIRY_HOURS, `must be at most ${MAX_EXPIRY_HOURS} hours (30 days)`)
    .exactOptional(),
  callbackUrl: z.string({ error: 'must be a string' }).min(1, 'must not be empty').exactOptional(),
})
