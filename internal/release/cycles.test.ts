// lint/cycles.ts (`pnpm cycles`, in `pnpm lint`): the import-cycle check and its allow-list.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { canonicalCycle, compareCycles, findCycles } from '../../lint/cycles.ts'

describe('pnpm cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (file: string, text: string) => {
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, 'src', file), text)
  }

  test('finds a cycle made of type-only imports, and none in a chain', async () => {
    write('a.ts', "import type { B } from './b.ts'\nexport interface A { b: B }\n")
    write('b.ts', "import type { A } from './a.ts'\nexport interface B { a?: A }\n")
    write('c.ts', "import { d } from './d.ts'\nexport const c = d + 1\n")
    write('d.ts', 'export const d = 1\n')
    expect(await findCycles(['src'], dir)).toEqual(['src/a.ts -> src/b.ts'])
  })

  test('a cycle reads the same from whichever module it is reported', () => {
    expect(canonicalCycle(['b.ts', 'c.ts', 'a.ts'])).toBe('a.ts -> b.ts -> c.ts')
    expect(canonicalCycle(['c.ts', 'a.ts', 'b.ts'])).toBe('a.ts -> b.ts -> c.ts')
  })

  test('reports a cycle that is not listed, and a listed one that is gone', () => {
    const listed = ['a.ts -> b.ts', 'x.ts -> y.ts']
    const current = ['b.ts -> a.ts', 'm.ts -> n.ts']
    expect(compareCycles(listed, current)).toEqual({ added: ['m.ts -> n.ts'], gone: ['x.ts -> y.ts'] })
    expect(compareCycles(listed, listed)).toEqual({ added: [], gone: [] })
  })
})
