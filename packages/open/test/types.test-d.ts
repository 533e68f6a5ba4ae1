import type { ServicePaths } from '@service-sdk/core'
import { describe, expectTypeOf, test } from 'vitest'
import type { OpenClient } from '../src/index.ts'

// What the client returns is what spec/openapi.yaml says the envelope's `result` holds.
type Body<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never
type Result<Op> = Body<Op> extends infer B ? (B extends { result: infer R } ? R : B) : never
type Returns<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>
const CALL = '/open-api/standard/call/service' as const

describe('open client return types match the generated types', () => {
  test('each method', () => {
    expectTypeOf<Returns<OpenClient['credentials']>>().toEqualTypeOf<
      Result<ServicePaths[`${typeof CALL}/sts-tmp`]['post']>
    >()
    expectTypeOf<Returns<OpenClient['orgs']>>().toEqualTypeOf<
      Result<ServicePaths[`${typeof CALL}/org-info`]['post']>['orgList']
    >()
    expectTypeOf<Returns<OpenClient['materials']['save']>>().toEqualTypeOf<
      Result<ServicePaths[`${typeof CALL}/material-save`]['post']>['materials']
    >()
    // The event-types answer may come wrapped or bare: either way the list.
    expectTypeOf<Returns<OpenClient['events']['types']>>().toEqualTypeOf<
      Result<ServicePaths['/api/service/material-automation-event-types']['get']>
    >()
  })
})
