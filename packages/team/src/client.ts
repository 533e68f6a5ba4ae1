import {
  type CallOptions,
  type ClientOptions,
  type CreatedMember,
  createdMemberSchema,
  createMemberInputSchema,
  type Id,
  type Impersonation,
  idSchema,
  impersonateOptionsSchema,
  impersonationSchema,
  inviteMemberInputSchema,
  ServiceValidationError,
  type TeamMember,
  teamMemberSchema,
} from '@service-sdk/core'
import { createTeamTransport, parseInput } from '@service-sdk/core/internal'
import { z } from 'zod'
import { checkCallbackUrl } from './callback-url.ts'

export interface TeamClientOptions extends ClientOptions {
  /** `{base_url}` of the service; the client calls `{base_url}/api/team/...`. */
  baseUrl: string
  /** The team API key (team management dashboard). Never logged, never in errors. */
  apiKey: string
  /** Origins an impersonation `callbackUrl` may point to besides relative paths. Default: none. */
  allowedCallbackOrigins?: readonly string[]
}

export interface ImpersonateOptions {
  /** Validity of the login URL in hours, above 0 and at most 720 (30 days). Service default 24. */
  expiryHours?: number
  /** Where the login lands: a path on the application (`/projects`), or a URL on an allowed origin. Default "/". */
  callbackUrl?: string
}

export interface TeamClient {
  members: {
    /** Every member of the team. */
    list(options?: CallOptions): Promise<TeamMember[]>
    /** Create a user on a whitelisted domain and add them to the team. Never retried once it may have reached the service. */
    create(input: { email: string; password?: string }, options?: CallOptions): Promise<CreatedMember>
    /** Add an already registered user (whitelisted domain) to the team. */
    invite(input: { email: string }, options?: CallOptions): Promise<CreatedMember>
    /** A login URL to embed the application as this member (see `embedImpersonation`). */
    impersonate(
      userId: Id | number,
      input?: ImpersonateOptions,
      options?: CallOptions,
    ): Promise<Impersonation>
  }
}

const MEMBERS = '/api/team/members'

// What each call's failures tell the caller to do (the generic hints know no call).
const CREATE_HINTS = {
  conflict:
    'A user with this email exists already: add them to the team with members.invite({ email }) instead.',
}
const INVITE_HINTS = {
  notFound:
    'No account is registered with this email: create the member with members.create({ email }) instead.',
  conflict: 'The user is a member of this team already: there is nothing to do.',
}
const IMPERSONATE_HINTS = {
  notFound:
    'No member of this team has this user id: take the id from members.list(), or invite the user first.',
}
const memberListSchema = z.array(teamMemberSchema)

/** The team API (area A). */
export function createTeamClient(options: TeamClientOptions): TeamClient {
  const transport = createTeamTransport(options)
  const { client } = transport
  const allowedOrigins = (options.allowedCallbackOrigins ?? []).map((o) => new URL(o).origin)

  return {
    members: {
      list: (call) =>
        transport.send<TeamMember[]>(
          {
            method: 'GET',
            path: MEMBERS,
            idempotent: true,
            schema: memberListSchema,
            call: (init) => client.GET(MEMBERS, init),
          },
          call,
        ),

      async create(input, call) {
        const body = parseInput(createMemberInputSchema, input, 'member to create')
        return transport.send<CreatedMember>(
          {
            method: 'POST',
            path: `${MEMBERS}/create`,
            // A retried create could add the user twice: only resent when provably never received.
            idempotent: false,
            schema: createdMemberSchema,
            hints: CREATE_HINTS,
            call: (init) => client.POST(`${MEMBERS}/create`, { ...init, body }),
          },
          call,
        )
      },

      async invite(input, call) {
        const body = parseInput(inviteMemberInputSchema, input, 'member to invite')
        return transport.send<CreatedMember>(
          {
            method: 'POST',
            path: `${MEMBERS}/invite`,
            // A repeated invite answers 409 after a first one that succeeded unseen: not retried.
            idempotent: false,
            schema: createdMemberSchema,
            hints: INVITE_HINTS,
            call: (init) => client.POST(`${MEMBERS}/invite`, { ...init, body }),
          },
          call,
        )
      },

      async impersonate(userId, input = {}, call) {
        const id = parseInput(
          idSchema.refine((v) => v !== '0', 'must be a positive id'),
          userId,
          'userId',
        )
        const body = parseInput(impersonateOptionsSchema, input, 'impersonation options')
        const issue =
          body.callbackUrl === undefined ? undefined : checkCallbackUrl(body.callbackUrl, allowedOrigins)
        if (issue) throw new ServiceValidationError('impersonation options', [issue])
        const path = `${MEMBERS}/{userId}/impersonation` as const
        return transport.send<Impersonation>(
          {
            method: 'POST',
            path: `${MEMBERS}/${id}/impersonation`,
            // Each call mints a fresh login token; a repeat only mints another: safe to retry.
            idempotent: true,
            schema: impersonationSchema,
            hints: IMPERSONATE_HINTS,
            call: (init) => client.POST(path, { ...init, params: { path: { userId: id } }, body }),
          },
          call,
        )
      },
    },
  }
}
