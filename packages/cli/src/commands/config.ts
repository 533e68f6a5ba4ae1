import type { Command } from 'commander'
import { configFile, mask, SETTINGS, type SettingName, writeProfile } from '../config.ts'
import { contextOf } from '../context.ts'
import { CliError } from '../errors.ts'
import { pc } from '../output.ts'

const NAMES = Object.keys(SETTINGS) as SettingName[]

export function configCommand(program: Command): void {
  const config = program
    .command('config')
    .description("show the configuration in effect (secrets masked), or set a profile's values")
    .addHelpText(
      'after',
      `
Precedence: flags (--base-url, --open-url), then SERVICE_* variables, then the profile
(--profile NAME or SERVICE_PROFILE; "default" otherwise) in $XDG_CONFIG_HOME/service-sdk/config.json.

Examples:
  service-sdk config
  service-sdk config --profile staging --json
  service-sdk config set openUrl https://open.example.com --profile staging`,
    )
    .action((_options, command: Command) => {
      const ctx = contextOf(command)
      const { settings, profile, file } = ctx.config
      const rows = NAMES.map((name) => {
        const setting = settings[name]
        const shown = setting ? (SETTINGS[name].secret ? mask(setting.value) : setting.value) : undefined
        return { name, variable: SETTINGS[name].env, value: shown, source: setting?.source }
      })
      if (ctx.out.json) return ctx.out.result({ profile, file, settings: rows }, () => '')
      ctx.out.note(pc.dim(`profile ${profile} (${file})`))
      ctx.out.table(rows, ['name', 'variable', 'value', 'source'])
    })

  config
    .command('set <name> <value>')
    .description(`store a value in the profile (names: ${NAMES.join(', ')})`)
    .addHelpText('after', '\nExample:\n  service-sdk config set teamApiKey "$KEY" --profile staging')
    .action((name: string, value: string, _options, command: Command) => {
      if (!NAMES.includes(name as SettingName))
        throw new CliError('usage', `Unknown setting ${name}`, `One of ${NAMES.join(', ')}`)
      const ctx = contextOf(command)
      const profile =
        command.optsWithGlobals<{ profile?: string }>().profile ?? process.env.SERVICE_PROFILE ?? 'default'
      const file = configFile()
      writeProfile(file, profile, { [name]: value })
      ctx.out.result({ profile, name, set: true }, () => `${pc.green('✓')} ${name} set in profile ${profile}`)
    })
}
