import { readFileSync } from 'node:fs'
import { Command, CommanderError, Option } from 'commander'
import { configCommand } from './commands/config.ts'
import { doctorCommand } from './commands/doctor.ts'
import { listenCommand } from './commands/listen.ts'
import { membersCommand, spacesCommand } from './commands/members.ts'
import { simCommand } from './commands/sim.ts'
import { subscriptionCommands } from './commands/subscribe.ts'
import { triggerCommand } from './commands/trigger.ts'
import { uploadCommand } from './commands/upload.ts'
import { CliError, EXIT } from './errors.ts'
import { reportError } from './output.ts'

/** This package's version, from its package.json (one directory above dist/ and src/). */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
}

const program = new Command('service-sdk')
  .version(version, '-V, --version', 'print the version of service-sdk')
  .description(
    'The service from the command line: members, spaces, uploads, subscriptions, webhooks, and a local simulator.',
  )
  .option(
    '--profile <name>',
    'the profile to use from $XDG_CONFIG_HOME/service-sdk/config.json (default: SERVICE_PROFILE or "default")',
  )
  .option('--base-url <url>', '{base_url} of the team API (overrides SERVICE_BASE_URL)')
  .option('--open-url <url>', '{open_url} of the open API (overrides SERVICE_OPEN_URL)')
  .option('--json', 'machine-readable output: JSON on stdout, errors as JSON on stderr')
  .addOption(new Option('--no-color', 'no colours (also when not a terminal, or with NO_COLOR)'))
  .showSuggestionAfterError()
  .exitOverride()
  .configureOutput({
    // Usage errors: one line and a hint, like every other error.
    outputError: () => {},
  })
  .addHelpText(
    'after',
    `
Start locally, offline:
  service-sdk sim --save-profile &                # a simulator on :4010, its credentials saved as the default profile
  service-sdk members list
  service-sdk upload ./assets/*.png --org 1001 --folder 1753946835010000001
  service-sdk listen --events MATERIAL_INBOUND_COMPLETED --forward-to http://localhost:3000/webhooks
  service-sdk trigger MATERIAL_DELETED
  service-sdk doctor                              # is the configuration right? what to fix

Exit codes: 0 ok, 1 failed, 2 bad arguments, 3 configuration missing, 4 service unreachable,
5 upload: some entries were not files it could read, 6 upload: a save's outcome is unknown,
7 upload: another upload to the same destination is running, 8 doctor: a check failed,
130 interrupted.`,
  )

for (const add of [
  configCommand,
  membersCommand,
  spacesCommand,
  uploadCommand,
  subscriptionCommands,
  listenCommand,
  triggerCommand,
  simCommand,
  doctorCommand,
])
  add(program)
for (const command of program.commands) {
  command.exitOverride().configureOutput({ outputError: () => {} })
  for (const sub of command.commands) sub.exitOverride().configureOutput({ outputError: () => {} })
}

const json = process.argv.includes('--json')

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) process.exit(EXIT.ok)
    // A command group without its subcommand: the help was printed.
    if (error.code === 'commander.help') process.exit(EXIT.usage)
    const message = error.message.replace(/^error: /, '')
    const usage = `${message.charAt(0).toUpperCase()}${message.slice(1)}`
    process.exit(
      await reportError(
        new CliError('usage', usage, 'Run the command with --help for its options and examples'),
        json,
      ),
    )
  }
  process.exit(await reportError(error, json))
}
