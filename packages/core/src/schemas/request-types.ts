import type { z } from 'zod'
import type { components } from '../generated/openapi.ts'
import type { createMemberInputSchema, impersonationRequestSchema, inviteMemberInputSchema } from './team.ts'

/**
 * Every schema of `spec/openapi.yaml` as a type, as generated (ids as decimal strings):
 * `Schemas['OrgSpace']`. The ones a caller names have a name of their own in `@service-sdk/core`.
 */
export type Schemas = components['schemas']

// The request bodies as they go on the wire, each what its input schema produces from a caller's
// input. The clients build them; a caller passes the input types of `@service-sdk/core`
// (`MaterialSaveParams`, `FolderSubscribeParams`, ...) or team's method options.

/** The body of a member create, as `createMemberInputSchema` outputs it. */
export type CreateMemberInput = Schemas['CreateMemberInput']
/** The body of a member invite, as `inviteMemberInputSchema` outputs it. */
export type InviteMemberInput = Schemas['InviteMemberInput']
/** The impersonation request body on the wire (the caller's options are team's `ImpersonateOptions`). */
export type ImpersonationRequest = Schemas['ImpersonationRequest']
/** The body of a material save, as `materialSaveInputSchema` outputs it (ids as decimal strings). */
export type MaterialSaveInput = Schemas['MaterialSaveInput']
/** The body of a folder (un)subscribe: the input plus `operation` (`folderSubscribeRequestSchema`). */
export type FolderSubscribeRequest = Schemas['FolderSubscribeRequest']
/** The body of an asset event (un)subscribe: the input plus `operation` (`eventSubscribeRequestSchema`). */
export type EventSubscribeRequest = Schemas['EventSubscribeRequest']

// What the team input schemas accept (team's methods take these shapes inline).
export type CreateMemberParams = z.input<typeof createMemberInputSchema>
export type InviteMemberParams = z.input<typeof inviteMemberInputSchema>
export type ImpersonateParams = z.input<typeof impersonationRequestSchema>
