import {
  type CallOptions,
  type ClientOptions,
  type CreatedMember,
  type Id,
  type Impersonation,
  type RawClient,
  ServiceValidationError,
  type TeamMember,
} from '@service-sdk/core'
import { createRawClient, createTeamTransport, operation, parseInput } from '@service-sdk/core/internal'
import {
  createdMemberSchema,
  createMemberInputSchema,
  idSchema,
  impersonationRequestSchema,
  impersonationSchema,
  inviteMemberInputSchema,
  teamMemberSchema,
} from '@service-sdk/core/schemas'
import { z } from 'zod'
import { checkCallbackUrl } from './callback-url.ts'

export interface TeamClientOptions extends ClientOptions {
  /**
   * `{base_url}` of the service; the client calls `{base_url}/api/team/...`. `undefined` (an
   * unset environment variable) is refused with a `ServiceValidationError`, as a bad URL is.
   */
  baseUrl: string | undefined
  /** The team API key (team management dashboard). Never logged, never in errors. Required (`undefined` is refused). */
  apiKey: string | undefined
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
  /**
   * The typed escape hatch: an openapi-fetch client of the spec's paths (`team.raw.GET('/api/team/members')`),
   * with this client's key, timeouts, retries and tracing, ids lossless both ways. For an endpoint
   * the SDK does not wrap (yet), or the whole answer of one it does; see the README.
   */
  readonly raw: RawClient
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

const LIST = operation('GET', '/api/team/members')
const CREATE = operation('POST', '/api/team/members/create')
const INVITE = operation('POST', '/api/team/members/invite')
const IMPERSONATE = operation('POST', '/api/team/members/{userId}/impersonation')

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
  const allowedOrigins = originsOf(options.allowedCallbackOrigins ?? [])

  return {
    raw: createRawClient(options.baseUrl as string, () => transport),
    members: {
      list: (call) =>
        transport.send<TeamMember[]>({ operation: LIST, idempotent: true, schema: memberListSchema }, call),

      async create(input, call) {
        const body = parseInput(createMemberInputSchema, input, 'member to create')
        return transport.send<CreatedMember>(
          {
            operation: CREATE,
            body,
            // A retried create could add the user twice: only resent when provably never received.
            idempotent: false,
            schema: createdMemberSchema,
            hints: CREATE_HINTS,
          },
          call,
        )
      },

      async invite(input, call) {
        const body = parseInput(inviteMemberInputSchema, input, 'member to invite')
        return transport.send<CreatedMember>(
          {
            operation: INVITE,
            body,
            // A repeated invite answers 409 after a first one that succeeded unseen: not retried.
            idempotent: false,
            schema: createdMemberSchema,
            hints: INVITE_HINTS,
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
        const body = parseInput(impersonationRequestSchema, input, 'impersonation options')
        const issue =
          body.callbackUrl === undefined ? undefined : checkCallbackUrl(body.callbackUrl, allowedOrigins)
        if (issue) throw new ServiceValidationError('impersonation options', [issue])
        return transport.send<Impersonation>(
          {
            operation: IMPERSONATE,
            pathParams: { userId: id },
            body,
            // Each call mints a fresh login token; a repeat only mints another: safe to retry.
            idempotent: true,
            schema: impersonationSchema,
            hints: IMPERSONATE_HINTS,
          },
          call,
        )
      },
    },
  }
}

/** The origins of `allowedCallbackOrigins`; one that is not an absolute URL is a bad option. */
function originsOf(urls: readonly string[]): string[] {
  const issues = urls.flatMap((url, i) =>
    URL.canParse(url) ? [] : [{ path: `allowedCallbackOrigins.${i}`, message: 'must be an absolute URL' }],
  )
  if (issues.length > 0) throw new ServiceValidationError('team client options', issues)
  return urls.map((url) => new URL(url).origin)
}
