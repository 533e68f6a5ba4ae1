// The same through CommonJS resolution (require conditions, .d.cts files).
import core = require('@service-sdk/core')
import team = require('@service-sdk/team')
import open = require('@service-sdk/open')

const client = team.createTeamClient({ baseUrl: 'https://service.test', apiKey: 'k' })
const members: Promise<core.TeamMember[]> = client.members.list()
export const used = [members, open.orgIdForSave('1'), core.VERSION]
