// Type-level use of every entry point, as an integrator's TypeScript project would write it.
import { type Id, ServiceError, type TeamMember } from '@service-sdk/core'
import { createFakeFetch, teamSuccess } from '@service-sdk/core/testing'
import { canWrite, createOpenClient, type OpenClient } from '@service-sdk/open'
import { type FolderChoice, pickFolder } from '@service-sdk/selector'
import { startSimulator } from '@service-sdk/simulator'
import { createTeamClient, embedImpersonation } from '@service-sdk/team'
import { parseWebhook } from '@service-sdk/webhooks'
import { webhooksHono } from '@service-sdk/webhooks/hono'
import { webhooksNode } from '@service-sdk/webhooks/node'
import { memoryStoreForTests } from '@service-sdk/webhooks/testing'

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
const choice: Promise<FolderChoice> | undefined = undefined as Promise<FolderChoice> | undefined
export const used = [
  members,
  open,
  ok,
  html,
  choice,
  pickFolder,
  startSimulator,
  parseWebhook,
  webhooksHono,
  webhooksNode,
  memoryStoreForTests,
  ServiceError.isInstance(new Error('x')),
]
