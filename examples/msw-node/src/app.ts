import { createOpenClient, type OpenClient } from '@service-sdk/open'
import { createTeamClient, type TeamClient } from '@service-sdk/team'
import { createWebhookReceiver, sqliteStore, type WebhookReceiver } from '@service-sdk/webhooks'

/** The application's clients, configured from the `SERVICE_*` variables as in production. */
export interface Clients {
  team: TeamClient
  open: OpenClient
}

export function clientsFromEnv(env: NodeJS.ProcessEnv = process.env): Clients {
  const need = (name: string) => {
    const value = env[name]
    if (!value) throw new Error(`${name} is not set`)
    return value
  }
  return {
    team: createTeamClient({ baseUrl: need('SERVICE_BASE_URL'), apiKey: need('SERVICE_TEAM_API_KEY') }),
    open: createOpenClient({
      openUrl: need('SERVICE_OPEN_URL'),
      token: { type: need('SERVICE_OPEN_TOKEN_TYPE'), value: need('SERVICE_OPEN_TOKEN') },
      apiKey: need('SERVICE_API_KEY'),
      uploads: { partSize: 100 * 1024, parallel: 2 },
    }),
  }
}

/** Gives a new colleague an account and returns their member id. */
export async function onboard({ team }: Clients, email: string): Promise<string> {
  const member = await team.members.create({ email })
  return member.id
}

/** Publishes one report (a file path) into a team folder; returns its download URL. */
export async function publishReport(
  { open }: Clients,
  path: string,
  where: { orgId: string; folderId: string },
): Promise<string> {
  const asset = await open.upload(path, where).done()
  return asset.accessUrl
}

/** Publishes several files at once; returns the names of those that failed. */
export async function publishAll(
  { open }: Clients,
  paths: string[],
  where: { orgId: string; folderId: string },
): Promise<string[]> {
  const results = await open.uploadMany(paths, { ...where, concurrency: 4 }).done()
  return results.flatMap((result) => (result.status === 'rejected' ? [paths[result.index] ?? ''] : []))
}

/** The app's webhook intake: records the ids of the assets each event names. */
export function eventLog(token: string): { receiver: WebhookReceiver; seen: string[] } {
  const seen: string[] = []
  const receiver = createWebhookReceiver({ token, store: sqliteStore(':memory:'), logger: {} })
  receiver.on('MATERIAL_INBOUND_COMPLETED', async (event) => {
    for (const id of event.payload.materialIds ?? []) seen.push(`inbound ${id}`)
  })
  receiver.on('MATERIAL_DELETED', async (event) => {
    for (const id of event.payload.materialIds ?? []) seen.push(`deleted ${id}`)
  })
  return { receiver, seen }
}
