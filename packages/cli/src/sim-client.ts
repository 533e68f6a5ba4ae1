import { CliError } from './errors.ts'

interface SimState {
  folders: Array<{ id: string; space: string; parentId: string }>
  apiKeys: Array<{ userId: string; teamId: string }>
  memberships: Array<{ teamId: string; userId: string }>
}

/** Where `trigger` acts: a folder, its space, another folder and another member of that space. */
export interface Place {
  folderId: string
  orgId: string | undefined
  otherFolderId: string | undefined
  otherMemberId: string | undefined
}

/** The simulator's control API (`/_sim`), which `trigger` drives. */
export interface SimClient {
  place(folderId?: string): Promise<Place>
  change(name: string, args: unknown[]): Promise<string[]>
  /** The event ids of the latest asset-event deliveries (the upload `trigger` just made). */
  lastEventIds(): Promise<string[]>
}

export function simClient(baseUrl: string): SimClient {
  const call = async (path: string, body?: unknown): Promise<unknown> => {
    const [{ parseServiceJson }, { stringifyJson }] = await Promise.all([
      import('@service-sdk/core'),
      import('@service-sdk/core/internal'),
    ])
    let response: Response
    try {
      response = await fetch(`${baseUrl.replace(/\/+$/, '')}/_sim${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { body: stringifyJson(body), headers: { 'content-type': 'application/json' } }),
      })
    } catch {
      throw new CliError(
        'unreachable',
        `Nothing answers at ${baseUrl}`,
        'Start the simulator: service-sdk sim',
      )
    }
    const text = await response.text()
    if (response.status === 404 && !text.includes('"error"'))
      throw new CliError(
        'failed',
        `${baseUrl} is not the simulator (no /_sim control API)`,
        'trigger works against `service-sdk sim` only',
      )
    const parsed = parseServiceJson(text) as { error?: string }
    if (!response.ok)
      throw new CliError('failed', `The simulator refused: ${parsed.error ?? response.status}`)
    return parsed
  }
  return {
    async place(folderId) {
      const state = (await call('/state')) as SimState
      const caller = state.apiKeys[0]
      const folder = folderId
        ? state.folders.find((f) => f.id === folderId)
        : state.folders.find((f) => f.space === `t:${caller?.teamId}`)
      if (!folder)
        throw new CliError(
          'usage',
          `No folder ${folderId ?? "in the caller's team space"}`,
          'Pick one from GET /_sim/state (folders)',
        )
      const teamId = folder.space.startsWith('t:') ? folder.space.slice(2) : undefined
      return {
        folderId: folder.id,
        orgId: teamId,
        otherFolderId: state.folders.find((f) => f.space === folder.space && f.id !== folder.id)?.id,
        otherMemberId: state.memberships.find((m) => m.teamId === teamId && m.userId !== caller?.userId)
          ?.userId,
      }
    },
    async change(name, args) {
      return ((await call(`/materials/${name}`, { args })) as { eventIds: string[] }).eventIds
    },
    async lastEventIds() {
      const deliveries = (await call('/webhooks/deliveries')) as Array<{
        eventId?: string
        eventType: string
      }>
      const last = deliveries.filter((d) => d.eventType === 'MATERIAL_INBOUND_COMPLETED').at(-1)?.eventId
      return last ? [last] : []
    },
  }
}
