// The README's reference tables name every quirk, fault action, delivery fault, control member
// and /_sim route the source declares: a new one without a line there fails here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulatorApp } from '../src/index.ts'

const root = join(import.meta.dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const readme = read('README.md')

/** The member names of an exported interface in a source file. */
function membersOf(file: string, name: string): string[] {
  const source = read(file)
  const start = source.indexOf(`export interface ${name} {`)
  expect(start, `${name} in ${file}`).toBeGreaterThan(-1)
  const body = source.slice(start, source.indexOf('\n}', start))
  return [...body.matchAll(/^ {2}(?:readonly )?([a-zA-Z]+)\??[:(]/gm)].map((m) => m[1] as string)
}

/** The first cells of the table that follows `heading` in the README. */
function firstCells(heading: string): string {
  const from = readme.indexOf(heading)
  expect(from, heading).toBeGreaterThan(-1)
  const table =
    readme
      .slice(from)
      .split('\n\n')
      .find((block) => block.startsWith('|')) ?? ''
  return table
    .split('\n')
    .map((row) => row.split('|')[1] ?? '')
    .join('\n')
}

const app = createSimulatorApp({ logger: {} })
afterAll(() => app.close())

describe('the README reference tables', () => {
  it('every key of Quirks has a row in the quirks table', () => {
    const keys = membersOf('src/model/context.ts', 'Quirks')
    expect(keys.length).toBeGreaterThanOrEqual(12)
    const table = firstCells('| Quirk ')
    for (const key of keys) expect(table, key).toContain(`\`${key}\``)
  })

  it('every fault action of control/faults.ts has a row in the action table', () => {
    const union =
      read('src/control/faults.ts').split('export type FaultAction =')[1]?.split('export interface')[0] ?? ''
    const types = [...union.matchAll(/type: '([a-z-]+)'/g)].map((m) => m[1])
    expect(types).toEqual(['status', 'open-code', 'reset', 'latency', 'expire-credentials', 'corrupt'])
    const table = firstCells('| `action`')
    for (const type of types) expect(table, type).toContain(`{ type: '${type}'`)
  })

  it('every delivery fault has a row in the delivery-fault table', () => {
    const table = firstCells('| Delivery fault')
    for (const key of membersOf('src/webhooks/sender/sender-settings.ts', 'DeliveryFaults'))
      expect(table, key).toContain(`\`${key}\``)
  })

  it('every member of control (and of its faults, webhooks and clock) has a row in the control table', () => {
    const table = firstCells('| `sim.control.`')
    const { control } = app
    const names = Object.keys(control).flatMap((key) => {
      const value = control[key as keyof typeof control]
      if (key === 'quirks' || key === 'materials') return [key]
      return typeof value === 'object' ? Object.keys(value).map((member) => `${key}.${member}`) : [key]
    })
    expect(names).toContain('clock.advance')
    for (const name of names) expect(table, name).toMatch(new RegExp(`\`${name.replace('.', '\\.')}[.(\`]`))
  })

  it('every change of control.materials is shown in the README', () => {
    for (const change of Object.keys(app.control.materials)) expect(readme, change).toContain(`.${change}(`)
  })

  it('every /_sim route of control/control.ts is in the control table', () => {
    const routes = [...read('src/control/control.ts').matchAll(/app\.(get|post|put|delete)\('([^']+)'/g)].map(
      ([, method, path]) => `${method?.toUpperCase()} /_sim${path?.replace(':change', '<change>')}`,
    )
    expect(routes.length).toBeGreaterThanOrEqual(12)
    const from = readme.indexOf('| `sim.control.`')
    const table = readme.slice(from, readme.indexOf('\n\n', from))
    for (const route of routes) expect(table, route).toContain(route)
  })
})
