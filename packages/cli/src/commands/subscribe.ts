import type { Command } from 'commander'
import { contextOf } from '../context.ts'
import { pc, withoutToken } from '../output.ts'

type Operation = 'subscribe' | 'unsubscribe'

const list = (values: string[]) =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)

function subscriptionCommand(program: Command, operation: Operation): void {
  const verb = operation === 'subscribe' ? 'Subscribe' : 'Unsubscribe'
  const root = program
    .command(operation)
    .description(
      `${operation} a callback URL ${operation === 'subscribe' ? 'to' : 'from'} folder changes or asset events (needs SERVICE_API_KEY)`,
    )
  root.addHelpText(
    'after',
    `\nExamples:\n  service-sdk ${operation} events MATERIAL_DELETED --url http://127.0.0.1:3000/webhooks/$SERVICE_WEBHOOK_TOKEN\n  service-sdk ${operation} folders 1753946835010000001 --url http://127.0.0.1:3000/webhooks/$SERVICE_WEBHOOK_TOKEN`,
  )
  root
    .command('folders <folderIds...>')
    .description(
      `${verb} --url ${operation === 'subscribe' ? 'to' : 'from'} content changes of these folders (FOLDER_CONTENT_UPDATE)`,
    )
    .requiredOption(
      '--url <callbackUrl>',
      "where the service sends the callbacks (e.g. your receiver's /webhooks/<token>)",
    )
    .addHelpText(
      'after',
      `\nExample:\n  service-sdk ${operation} folders 1753946835010000001 --url http://127.0.0.1:3000/webhooks/$SERVICE_WEBHOOK_TOKEN`,
    )
    .action(async (folderIds: string[], options: { url: string }, command: Command) => {
      const ctx = contextOf(command)
      const input = { folderIds: list(folderIds), callbackUrl: options.url }
      const open = await ctx.open({ needsApiKey: true })
      await (operation === 'subscribe' ? open.folders.subscribe(input) : open.folders.unsubscribe(input))
      ctx.out.result(
        { [`${operation}d`]: true, ...input, callbackUrl: withoutToken(input.callbackUrl) },
        () => `${pc.green('✓')} ${verb}d ${input.folderIds.join(', ')}`,
      )
    })
  root
    .command('events <eventTypes...>')
    .description(
      `${verb} --url ${operation === 'subscribe' ? 'to' : 'from'} asset events (codes from \`service-sdk events types\`)`,
    )
    .requiredOption('--url <callbackUrl>', 'where the service sends the events')
    .addHelpText(
      'after',
      `\nExample:\n  service-sdk ${operation} events MATERIAL_DELETED MATERIAL_INBOUND_COMPLETED --url http://127.0.0.1:3000/webhooks/$SERVICE_WEBHOOK_TOKEN`,
    )
    .action(async (eventTypes: string[], options: { url: string }, command: Command) => {
      const ctx = contextOf(command)
      const input = { eventTypes: list(eventTypes), callbackUrl: options.url }
      const open = await ctx.open({ needsApiKey: true })
      await (operation === 'subscribe'
        ? open.events.subscribe(input as Parameters<typeof open.events.subscribe>[0])
        : open.events.unsubscribe(input as Parameters<typeof open.events.unsubscribe>[0]))
      ctx.out.result(
        { [`${operation}d`]: true, ...input, callbackUrl: withoutToken(input.callbackUrl) },
        () => `${pc.green('✓')} ${verb}d ${input.eventTypes.join(', ')}`,
      )
    })
}

export function subscriptionCommands(program: Command): void {
  subscriptionCommand(program, 'subscribe')
  subscriptionCommand(program, 'unsubscribe')
  program
    .command('events')
    .description('asset events')
    .addHelpText('after', '\nExample:\n  service-sdk events types')
    .command('types')
    .description('the asset event types, and which ones this API key is subscribed to')
    .addHelpText('after', '\nExample:\n  service-sdk events types --json')
    .action(async (_options, command: Command) => {
      const ctx = contextOf(command)
      const types = await (await ctx.open({ needsApiKey: true })).events.types()
      ctx.out.table(types as unknown as Array<Record<string, unknown>>, ['code', 'desc', 'subscribed'])
    })
}
