import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as zm from 'zod/mini'
import { ServiceValidationError } from './errors/errors.ts'
import { parseInput } from './validate.ts'

function thrown(run: () => unknown): ServiceValidationError {
  try {
    run()
  } catch (error) {
    if (ServiceValidationError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a ServiceValidationError')
}

// parseInput calls the schema's Standard Schema `validate` (no zod import at run time): the
// issues are zod's own, the path joined with dots.
describe('parseInput', () => {
  const classic = z.strictObject({ materials: z.array(z.object({ size: z.int().min(0) })).min(1) })
  const mini = zm.strictObject({ materials: zm.array(zm.object({ size: zm.int().check(zm.minimum(0)) })) })
  const bad = { materials: [{ size: 1 }, { size: 2 }, { size: -1 }], extra: true }

  test.each([
    ['classic', classic],
    ['mini', mini],
  ])('%s zod: the parsed value, or every issue as zod reports it', (_, schema) => {
    expect(parseInput(schema, { materials: [{ size: 3 }] }, 'input')).toEqual({ materials: [{ size: 3 }] })
    const error = thrown(() => parseInput(schema, bad, 'material-save input'))
    const zodIssues = z.safeParse(schema, bad).error!.issues
    expect(error.code).toBe('validation_error')
    expect(error.issues).toEqual(zodIssues.map((i) => ({ path: i.path.join('.'), message: i.message })))
    expect(error.issues.map((i) => i.path)).toEqual(['materials.2.size', ''])
    expect(error.message).toMatch(/^Invalid material-save input: materials\.2\.size: .*Nothing was sent\.$/)
  })

  test('values a transform makes are returned', () => {
    const schema = z.object({ id: z.string().transform((s) => s.trim()) })
    expect(parseInput(schema, { id: ' 7 ' }, 'input')).toEqual({ id: '7' })
  })

  test('an asynchronous schema is a programming error, not bad input', () => {
    const schema = z.string().refine(async () => true)
    expect(() => parseInput(schema, 'x', 'input')).toThrow(TypeError)
  })
})
