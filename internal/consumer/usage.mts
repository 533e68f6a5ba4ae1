// Type-level use of the ESM entry points, as an integrator's TypeScript project would write it.
import { type Id, ServiceError, type TeamMember } from '@service-sdk/core'
import { createFakeFetch, teamSuccess } from '@service-sdk/core/testing'
import { canWrite, createOpenClient, type OpenClient } from '@service-sdk/open'
import { createTeamClient, embedImpersonation } from '@service-sdk/team'

const fetch = createFakeFetch(() => teamSuccess([]))
const team = createTeamClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch })
const members: Promise<TeamMember[]> = team.members.list()
const id: Id = '1673603133161799680'
void team.members.impersonate(id, { expiryHours: 2, callbackUrl: '/' })
const open: OpenClient = createOpenClient({
  openUrl: 'https://open.test',
  token: { type: 'Bearer', value: 'v' },
})
const ok: boolean = canWrite({ roleCode: 'owner', valid: true, invalidTime: Date.now() + 1 })
const html: string = embedImpersonation({
  loginUrl: 'https://service.test/auth/impersonation-login?token=t',
}).html
export const used = [members, open, ok, html, ServiceError.isInstance(new Error('x'))]
