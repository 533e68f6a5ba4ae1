// The same through CommonJS resolution (require conditions, .d.cts files).
import core = require('@service-sdk/core')
import testing = require('@service-sdk/core/testing')
import team = require('@service-sdk/team')
import open = require('@service-sdk/open')
import webhooks = require('@service-sdk/webhooks')
import node = require('@service-sdk/webhooks/node')

const client = team.createTeamClient({ baseUrl: 'https://service.test', apiKey: 'k' })
const members: Promise<core.TeamMember[]> = client.members.list()
export const used = [members, open.writableOrgs([]), core.VERSION, testing, webhooks.parseWebhook, node]
