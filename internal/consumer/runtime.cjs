// CommonJS at run time: the clients load and make a call.
const { createTeamClient } = require('@service-sdk/team')
const { orgIdForSave } = require('@service-sdk/open')
const { ServiceValidationError, VERSION } = require('@service-sdk/core')
const { createFakeFetch, teamSuccess } = require('@service-sdk/core/testing')
const { parseWebhook } = require('@service-sdk/webhooks')

async function main() {
  const fetch = createFakeFetch(() =>
    teamSuccess([{ id: 7, name: 'A', email: 'a@acme.com', createdAt: 'x' }]),
  )
  const [member] = await createTeamClient({
    baseUrl: 'https://service.test',
    apiKey: 'k',
    fetch,
  }).members.list()
  let refused = false
  try {
    createTeamClient({ baseUrl: 'nope', apiKey: '' })
  } catch (error) {
    refused = ServiceValidationError.isInstance(error)
  }
  const result = {
    id: member.id,
    refused,
    orgId: orgIdForSave('1') ?? null,
    version: VERSION,
    parse: typeof parseWebhook,
  }
  console.log(JSON.stringify(result))
}

main()
