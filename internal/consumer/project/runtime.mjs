// Node ESM, as an integrator's script: real calls against the simulator, all from the tarballs.

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ServiceNotFoundError } from '@service-sdk/core'
import { createOpenClient } from '@service-sdk/open'
import { createSelector } from '@service-sdk/selector'
import { startSimulator } from '@service-sdk/simulator'
import { createTeamClient } from '@service-sdk/team'
import { parseWebhook, sqliteStore } from '@service-sdk/webhooks'

const sim = await startSimulator()
try {
  const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
  const members = await team.members.list()
  const missing = await team.members.impersonate('5').catch((error) => error)
  const open = createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })
  const spaces = await open.orgs()
  // The SQLite store's worker thread is its own module in the tarball.
  const store = sqliteStore(join(mkdtempSync(join(tmpdir(), 'consumer-')), 'inbox.db'))
  const inserted = await store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
  const stored = await store.get('k')
  await store.close()
  console.log(
    JSON.stringify({
      members: members.length > 0 && members.every((m) => /^\d+$/.test(m.id)),
      notFound: ServiceNotFoundError.isInstance(missing),
      spaces: spaces.length >= 0,
      parse: typeof parseWebhook,
      selector: typeof createSelector,
      sqlite: `${inserted} ${stored?.status}`,
    }),
  )
} finally {
  await sim.stop()
}
