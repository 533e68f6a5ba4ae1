import type { Command } from 'commander'
import { contextOf } from '../context.ts'
import { positiveNumber } from '../flags.ts'
import { pc } from '../output.ts'

export function membersCommand(program: Command): void {
  const members = program
    .command('members')
    .description('list, create and invite the members of the team; log in as one (team API)')
    .addHelpText(
      'after',
      '\nExamples:\n  service-sdk members list\n  service-sdk members create hedy@acme.com\n\nNeeds SERVICE_BASE_URL and SERVICE_TEAM_API_KEY.',
    )

  members
    .command('list')
    .description('every member of the team')
    .addHelpText(
      'after',
      '\nExamples:\n  service-sdk members list\n  service-sdk members list --json | jq -r ".[].email"',
    )
    .action(async (_options, command: Command) => {
      const ctx = contextOf(command)
      const list = await (await ctx.team()).members.list()
      ctx.out.table(list as unknown as Array<Record<string, unknown>>, ['id', 'name', 'email', 'createdAt'])
    })

  members
    .command('create <email>')
    .description("create a user on one of the team's verified domains and add them to the team")
    .option('--password <password>', 'their first password (otherwise the service sends an invitation)')
    .addHelpText(
      'after',
      '\nExamples:\n  service-sdk members create hedy@acme.com\n  service-sdk members create hedy@acme.com --json',
    )
    .action(async (email: string, options: { password?: string }, command: Command) => {
      const ctx = contextOf(command)
      const created = await (await ctx.team()).members.create({
        email,
        ...(options.password ? { password: options.password } : {}),
      })
      ctx.out.table(
        [created as unknown as Record<string, unknown>],
        ['id', 'name', 'email', 'teamId', 'createdAt'],
      )
    })

  members
    .command('invite <email>')
    .description('add an already registered user (on a verified domain) to the team')
    .addHelpText('after', '\nExample:\n  service-sdk members invite linus@acme.com')
    .action(async (email: string, _options, command: Command) => {
      const ctx = contextOf(command)
      const invited = await (await ctx.team()).members.invite({ email })
      ctx.out.table(
        [invited as unknown as Record<string, unknown>],
        ['id', 'name', 'email', 'teamId', 'createdAt'],
      )
    })

  members
    .command('impersonate <userId>')
    .description('a login URL that opens the application as this member (treat it as a password)')
    .option(
      '--expiry-hours <hours>',
      'how long the link works, in hours: above 0 (0.5 is half an hour), at most 720 (default: 24)',
      positiveNumber(720, 'a number of hours'),
    )
    .option('--callback-url <url>', 'where the application goes after login (a path or URL)')
    .addHelpText(
      'after',
      '\nExamples:\n  service-sdk members impersonate 1673603133161799681 --expiry-hours 2 --callback-url /library\n  service-sdk members impersonate 1673603133161799681 --json | jq -r .loginUrl',
    )
    .action(
      async (userId: string, options: { expiryHours?: number; callbackUrl?: string }, command: Command) => {
        const ctx = contextOf(command)
        const login = await (await ctx.team()).members.impersonate(userId, {
          ...(options.expiryHours ? { expiryHours: options.expiryHours } : {}),
          ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
        })
        ctx.out.result(login, () =>
          [
            login.loginUrl,
            pc.dim(
              `valid ${login.expiryHours} h, until ${login.expiresAt}; anyone with this link is signed in as the member`,
            ),
          ].join('\n'),
        )
      },
    )
}

export function spacesCommand(program: Command): void {
  program
    .command('spaces')
    .description(
      'the team spaces of the caller: role, validity, and whether uploads are allowed now (open API)',
    )
    .addHelpText(
      'after',
      "\nExamples:\n  service-sdk spaces\n  service-sdk spaces --json | jq -r '.[] | select(.writable) | .id'\n\nNeeds SERVICE_OPEN_URL and SERVICE_OPEN_TOKEN.",
    )
    .action(async (_options, command: Command) => {
      const ctx = contextOf(command)
      const orgs = await (await ctx.open()).orgs()
      const { canWrite } = await import('@service-sdk/open')
      const now = Date.now()
      const rows = orgs.map((o) => ({
        id: o.id,
        name: o.name,
        role: o.roleCode,
        valid: o.valid,
        until: new Date(o.invalidTime).toISOString().slice(0, 10),
        writable: canWrite(o, now),
      }))
      ctx.out.table(rows, ['id', 'name', 'role', 'valid', 'until', 'writable'])
    })
}
