// CommonJS at run time.
const { createTeamClient } = require('@service-sdk/team')
const { orgIdForSave } = require('@service-sdk/open')
const { ServiceValidationError, VERSION } = require('@service-sdk/core')
const { parseWebhook } = require('@service-sdk/webhooks')

let refused = false
try {
  createTeamClient({ baseUrl: 'nope', apiKey: '' })
} catch (error) {
  refused = ServiceValidationError.isInstance(error)
}
console.log(
  JSON.stringify({ refused, orgId: orgIdForSave('1') ?? null, version: VERSION, parse: typeof parseWebhook }),
)
