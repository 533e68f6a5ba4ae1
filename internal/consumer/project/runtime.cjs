// Node CommonJS: the same packages through `require`, real calls against the simulator.
const { ServiceValidationError, VERSION } = require('@service-sdk/core')
const { createOpenClient } = require('@service-sdk/open')
const { orgIdForSave } = require('@service-sdk/selector')
const { startSimulator } = require('@service-sdk/simulator')
const { createTeamClient } = require('@service-sdk/team')
const { mkdtempSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { parseWebhook, sqliteStore } = require('@service-sdk/webhooks')

async function main() {
  const sim = await startSimulator()
  try {
    const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
    const members = await team.members.list()
    const open = createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })
    const credential = await open.credentials()
    // The SQLite store's worker thread is its own module in the tarball.
    const store = sqliteStore(join(mkdtempSync(join(tmpdir(), 'consumer-')), 'inbox.db'))
    const inserted = await store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
    const stored = await store.get('k')
    await store.close()
    let refused = false
    try {
      createTeamClient({ baseUrl: 'nope', apiKey: '' })
    } catch (error) {
      refused = ServiceValidationError.isInstance(error)
    }
    console.log(
      JSON.stringify({
        members: members.length > 0,
        bucket: typeof credential.bucket,
        refused,
        orgId: orgIdForSave('1') ?? null,
        version: VERSION,
        parse: typeof parseWebhook,
        sqlite: `${inserted} ${stored?.status}`,
      }),
    )
  } finally {
    await sim.stop()
  }
}

main()
