import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { root } from '../../scripts/lib/workspace.ts'

// The GitHub workflows: valid for GitHub (action-validator, the workflow schema, from the npm
// registry), and doing what the README says: CI runs the README's test command with apt's
// Chromium and a PostgreSQL service; the release goes through changesets and the release script.

const workflows = join(root, '.github', 'workflows')
const validator = join(import.meta.dirname, 'node_modules', '.bin', 'action-validator')
const scratch = mkdtempSync(join(tmpdir(), 'workflows-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function validate(file: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(validator, [file], { encoding: 'utf8', stdio: 'pipe' }) }
  } catch (error) {
    const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string }
    return { code: status, output: `${stdout}${stderr}` }
  }
}

const read = (name: string) => readFileSync(join(workflows, name), 'utf8')
// biome-ignore lint/suspicious/noExplicitAny: a parsed workflow is untyped YAML
const workflow = (name: string): any => parse(read(name))

describe('the workflows', () => {
  test('ci.yml and release.yml are there, and action-validator accepts each', () => {
    expect(readdirSync(workflows).sort()).toEqual(['ci.yml', 'release.yml'])
    for (const name of ['ci.yml', 'release.yml']) {
      const result = validate(join(workflows, name))
      expect(result.code, `${name}: ${result.output}`).toBe(0)
    }
  })

  test('the validator refuses a broken workflow (a misspelt key), so its verdict means something', () => {
    const broken = join(scratch, 'broken.yml')
    writeFileSync(broken, read('ci.yml').replace('runs-on:', 'runs_on:'))
    const result = validate(broken)
    expect(result.code).not.toBe(0)
    expect(result.output).toContain('runs_on')
  })

  test("ci.yml runs the README's test command, with apt's Chromium and a PostgreSQL service", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const command = /^(npm i -g pnpm@12 && pnpm install && pnpm test)\b/m.exec(readme)?.[1]
    expect(command).toBeDefined()
    const run = readFileSync(join(root, '.ci', 'run'), 'utf8')
    expect(run.trimEnd().split('\n').at(-1)).toBe(command)
    expect(run).toMatch(/apt-get install .*"\$\{missing\[@\]\}"/)
    expect(run).toContain('missing+=(chromium)')

    const ci = workflow('ci.yml')
    const job = ci.jobs.test
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push'])
    expect(job.container.image).toMatch(/bookworm/) // Debian: apt's chromium is a real package
    expect(job.steps.map((s: { run?: string }) => s.run)).toContain('.ci/run')
    expect(job.services.postgres.env).toMatchObject({
      POSTGRES_HOST_AUTH_METHOD: 'trust',
      POSTGRES_DB: 'test',
    })
    expect(job.env).toMatchObject({ CI: '1', POSTGRES_URL: 'postgres://postgres@postgres:5432/test' })
    expect(ci.permissions).toEqual({ contents: 'read' })
  })

  test('release.yml versions and publishes through changesets and the release script, least privilege', () => {
    const release = workflow('release.yml')
    expect(release.on).toEqual({ push: { branches: ['main'] } })
    expect(release.permissions).toEqual({})
    const job = release.jobs.release
    expect(job.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', 'id-token': 'write' })
    const step = job.steps.find((s: { uses?: string }) => s.uses?.startsWith('changesets/action@'))
    expect(step.with).toMatchObject({ version: 'pnpm changeset version', publish: 'pnpm release' })
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(manifest.scripts.release).toBe('node scripts/release.ts')
  })
})
