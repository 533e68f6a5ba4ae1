import type { Command } from 'commander'
import type { Config } from '../config.ts'
import { contextOf } from '../context.ts'
import { corsFindings } from '../doctor/cors.ts'
import { eventTypesFinding } from '../doctor/event-types.ts'
import type { Finding, Status } from '../doctor/finding.ts'
import { checkApiKey, checkOpenToken, checkTeamKey } from '../doctor/service.ts'
import { spacesFinding } from '../doctor/spaces.ts'
import { checkStsWrite } from '../doctor/storage.ts'
import { webhookFinding } from '../doctor/webhook.ts'
import { EXIT } from '../errors.ts'
import { decimalId, httpUrl, pageOrigins, positiveNumber } from '../flags.ts'
import { pc } from '../output.ts'

interface DoctorOptions {
  org?: string
  origin: string[]
  webhookUrl?: string
  timeout: number
}

export function doctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the configuration against the service: keys and tokens, spaces, an STS write, the bucket CORS for your pages, subscriptions, a webhook URL',
    )
    .option(
      '--org <id>',
      'the space uploads go to: fail unless it is writable (1: the personal space)',
      decimalId,
    )
    .option(
      '--origin <origin>',
      'a page that uploads from a browser (https://app.example.com): check the bucket CORS for it (repeatable)',
      pageOrigins,
      [],
    )
    .option(
      '--webhook-url <url>',
      "a webhook receiver's URL: check that it answers (nothing is stored)",
      httpUrl,
    )
    .option(
      '--timeout <seconds>',
      'how long each request may wait for its answer, above 0, at most 120',
      positiveNumber(120, 'a number of seconds'),
      10,
    )
    .addHelpText(
      'after',
      `
Examples:
  service-sdk doctor
  service-sdk doctor --org 1001 --origin https://app.example.com --webhook-url "https://hooks.example.com/webhooks/$SERVICE_WEBHOOK_TOKEN"
  service-sdk doctor --json | jq -r '.[] | select(.status == "fail") | .advice'

Each row is ok, warn, fail or skip (not checked), with what to do. Exit codes: 0 nothing failed,
8 a check failed, 3 nothing is configured. It writes one probe object under the STS credential's
dir and removes it; it creates no asset, subscription or event.`,
    )
    .action(async (options: DoctorOptions, command: Command) => {
      const ctx = contextOf(command)
      const findings = await runChecks(ctx.config, options)
      if (ctx.out.json) ctx.out.result(findings, () => '')
      else {
        ctx.out.table(
          findings.map((f) => ({ ...f, status: STATUS[f.status](f.status) })),
          ['status', 'check', 'detail', 'advice'],
          { fixed: 2 },
        )
      }
      const code = exitCode(ctx.config, findings)
      if (!ctx.out.json) ctx.out.note(summary(findings, code))
      process.exitCode = code
    })
}

const STATUS: Record<Status, (text: string) => string> = {
  ok: pc.green,
  warn: pc.yellow,
  fail: pc.red,
  skip: pc.dim,
}

/** Every check, in the order of the table; the independent ones run at once. */
async function runChecks(config: Config, options: DoctorOptions): Promise<Finding[]> {
  const timeoutMs = Math.round(options.timeout * 1000)
  const [team, token, apiKey, webhook] = await Promise.all([
    checkTeamKey(config, timeoutMs),
    checkOpenToken(config, timeoutMs),
    checkApiKey(config, timeoutMs),
    webhookFinding(options.webhookUrl, config.get('openUrl'), timeoutMs),
  ])
  const storage = await checkStsWrite(token, timeoutMs)
  const [spaces, cors, events] = await Promise.all([
    spacesFinding(token, options.org),
    corsFindings(options.origin, token, storage, timeoutMs),
    eventTypesFinding(apiKey),
  ])
  const findings = [team, token.finding, apiKey.finding, spaces, storage.finding, ...cors, events, webhook]
  const { createRedactor } = await import('@service-sdk/core/internal')
  // A net under every message: no key, token, STS secret or webhook token reaches the output.
  const redact = createRedactor([
    config.get('teamApiKey'),
    config.get('openToken'),
    config.get('apiKey'),
    storage.credential?.accessKeyId,
    storage.credential?.accessKeySecret,
    storage.credential?.securityToken,
    ...webhookSecrets(options.webhookUrl),
  ])
  return redact(findings)
}

/**
 * A webhook URL carries its receiver's token: the URL and a long last segment are never printed
 * (the rows show the URL as `withoutToken` does).
 */
function webhookSecrets(url: string | undefined): string[] {
  if (!url || !URL.canParse(url)) return []
  const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? ''
  return [url, ...(last.length >= 16 ? [last] : [])]
}

function exitCode(config: Config, findings: Finding[]): number {
  if (findings.some((f) => f.status === 'fail')) return EXIT.unhealthy
  const configured = (['teamApiKey', 'openToken', 'apiKey'] as const).some((name) => config.get(name))
  return configured ? EXIT.ok : EXIT.config
}

function summary(findings: Finding[], code: number): string {
  if (code === EXIT.config)
    return 'Nothing is configured: set the SERVICE_* variables or a profile (service-sdk config), or for a local simulator: service-sdk sim --save-profile'
  const count = (status: Status) => findings.filter((f) => f.status === status).length
  const parts = [
    [count('fail'), 'failed'],
    [count('warn'), count('warn') === 1 ? 'warning' : 'warnings'],
    [count('skip'), 'not checked'],
  ].filter(([n]) => n !== 0)
  if (parts.length === 0) return pc.green('Every check passed.')
  return `${parts.map(([n, what]) => `${n} ${what}`).join(', ')}: the advice column says what to do.`
}
