import { type Command, InvalidArgumentError } from 'commander'
import { type Context, contextOf } from '../context.ts'
import { CliError } from '../errors.ts'
import { decimalId } from '../flags.ts'
import { pc } from '../output.ts'
import { type SimClient, simClient } from '../sim-client.ts'

/** What `trigger` can make the simulator emit: each event kind, and the variants of each. */
export const TRIGGERS = {
  MATERIAL_INBOUND_COMPLETED: [],
  MATERIAL_ADDED_TO_FOLDER: [],
  MATERIAL_METADATA_UPDATED: ['BASIC', 'VALIDITY', 'TAGS', 'OWNER', 'METADATA', 'CUSTOM_FIELD'],
  MATERIAL_VERSION_CHANGED: ['ADD', 'SET_COVER', 'REMOVE'],
  MATERIAL_DELETED: ['RECYCLE', 'PERMANENT'],
  'folder.add': [],
  'folder.update': [],
  'folder.delete': [],
} as const satisfies Record<string, readonly string[]>

export type Trigger = keyof typeof TRIGGERS

const triggerName = (value: string): Trigger => {
  const found = Object.keys(TRIGGERS).find((t) => t.toLowerCase() === value.toLowerCase())
  if (!found) throw new InvalidArgumentError(`one of ${Object.keys(TRIGGERS).join(', ')}`)
  return found as Trigger
}

export function triggerCommand(program: Command): void {
  program
    .command('trigger <event>')
    .description(
      'make the simulator emit an asset event or a folder change (uploads a small asset to act on)',
    )
    .option(
      '--variant <variant>',
      'the change type or action (MATERIAL_METADATA_UPDATED: BASIC...; MATERIAL_VERSION_CHANGED: ADD...; MATERIAL_DELETED: RECYCLE, PERMANENT)',
    )
    .option(
      '--folder <folderId>',
      "where the asset goes (default: the first folder of the caller's team space)",
      decimalId,
    )
    .addHelpText(
      'after',
      `
Events: ${Object.entries(TRIGGERS)
        .map(([t, v]) => (v.length ? `${t} (${v.join(', ')})` : t))
        .join(', ')}.
Works against the simulator only (its /_sim control API at SERVICE_BASE_URL). The events go to
whatever is subscribed: run \`service-sdk listen --events ...\` first.

Examples:
  service-sdk trigger MATERIAL_DELETED --variant PERMANENT
  service-sdk trigger MATERIAL_METADATA_UPDATED --variant TAGS
  service-sdk trigger folder.add --folder 1753946835010000001 --json`,
    )
    .action(async (name: string, options: { variant?: string; folder?: string }, command: Command) => {
      const ctx = contextOf(command)
      const trigger = triggerName(name)
      const variants: readonly string[] = TRIGGERS[trigger]
      const variant = options.variant?.toUpperCase() ?? variants[0]
      if (variant !== undefined && !variants.includes(variant))
        throw new CliError(
          'usage',
          `${trigger} has no variant ${options.variant}`,
          variants.length ? `One of ${variants.join(', ')}` : 'It has no variants',
        )
      const sim = simClient(ctx.config.require('baseUrl'))
      const eventIds = await fire(ctx, sim, trigger, variant, options.folder)
      ctx.out.result(
        { triggered: trigger, variant: variant ?? null, eventIds },
        () =>
          `${pc.green('✓')} ${trigger}${variant ? ` (${variant})` : ''}${eventIds.length ? pc.dim(` events ${eventIds.join(', ')}`) : ''}`,
      )
    })
}

async function fire(
  ctx: Context,
  sim: SimClient,
  trigger: Trigger,
  variant: string | undefined,
  folder?: string,
): Promise<string[]> {
  const place = await sim.place(folder)
  const open = await ctx.open()
  const upload = async (label: string) =>
    open
      .upload(Buffer.from(`service-sdk trigger ${label} ${new Date().toISOString()}\n`), {
        name: `trigger-${label}-${Date.now()}`,
        extension: 'txt',
        folderId: place.folderId,
        ...(place.orgId ? { orgId: place.orgId } : {}),
      })
      .done()
  const asset = await upload(trigger.toLowerCase())
  const change = (name: string, ...args: unknown[]) => sim.change(name, args)
  switch (trigger) {
    case 'MATERIAL_INBOUND_COMPLETED':
    case 'folder.add':
      return sim.lastEventIds()
    case 'MATERIAL_ADDED_TO_FOLDER':
      return change('addToFolder', [asset.id], place.otherFolderId)
    case 'MATERIAL_METADATA_UPDATED':
    case 'folder.update':
      return change('updateMetadata', asset.id, metadataChange(variant ?? 'BASIC', place.otherMemberId))
    case 'MATERIAL_VERSION_CHANGED': {
      const next = await upload('version')
      const added = await change('addVersion', asset.id, next.id)
      if (variant === 'SET_COVER') return change('setCover', next.id)
      if (variant === 'REMOVE') return change('removeVersion', next.id, 'ADD')
      return added
    }
    case 'MATERIAL_DELETED':
    case 'folder.delete': {
      const recycled = await change('delete', [asset.id])
      return variant === 'PERMANENT' ? change('purge', [asset.id]) : recycled
    }
  }
}

function metadataChange(variant: string, otherMemberId: string | undefined): Record<string, unknown> {
  switch (variant) {
    case 'VALIDITY':
      return {
        changeType: 'VALIDITY',
        validityStatus: 1,
        validityStatusName: 'Valid',
        isPermanent: false,
        daysToExpire: 30,
      }
    case 'TAGS':
      return { changeType: 'TAGS', tagNames: ['triggered', 'service-sdk-cli'] }
    case 'OWNER':
      if (!otherMemberId)
        throw new CliError(
          'failed',
          'No other member of the team to give the asset to',
          'Use a team space with two members (--folder)',
        )
      return { changeType: 'OWNER', ownerUserId: otherMemberId }
    case 'METADATA':
      return { changeType: 'METADATA', metadata: { source: 'service-sdk trigger' } }
    case 'CUSTOM_FIELD':
      return { changeType: 'CUSTOM_FIELD', customFields: [{ templateId: '1', value: 'triggered' }] }
    default:
      return {
        changeType: 'BASIC',
        description: `changed by service-sdk trigger at ${new Date().toISOString()}`,
      }
  }
}
