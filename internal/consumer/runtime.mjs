// ESM at run time: each package's main entry loads from dist and works.
import { ServiceNotFoundError } from '@service-sdk/core'
import { createFakeFetch, teamFailure, teamSuccess } from '@service-sdk/core/testing'
import { canWrite } from '@service-sdk/open'
import { createSelector } from '@service-sdk/selector'
import { createSimulatorApp } from '@service-sdk/simulator'
import { createTeamClient } from '@service-sdk/team'
import { parseWebhook } from '@service-sdk/webhooks'

const fetch = createFakeFetch((r) =>
  r.path.endsWith('/members')
    ? teamSuccess([{ id: 1673603133161799680n, name: 'A', email: 'a@acme.com', createdAt: 'x' }])
    : teamFailure(404, 'Member not found in this team'),
)
const team = createTeamClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch })
const [member] = await team.members.list()
const error = await team.members.impersonate('5').catch((e) => e)
const sim = createSimulatorApp()
sim.close()
console.log(
  JSON.stringify({
    id: member.id,
    notFound: ServiceNotFoundError.isInstance(error),
    canWrite: canWrite({ roleCode: 'member_view', valid: true, invalidTime: Date.now() + 1 }),
    parse: typeof parseWebhook,
    selector: typeof createSelector,
  }),
)
