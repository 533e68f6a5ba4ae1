import type { ServicePaths } from '@service-sdk/core'
import { describe, expectTypeOf, test } from 'vitest'
import type { TeamClient } from '../src/index.ts'

// What the client returns is what spec/openapi.yaml says the envelope's `data` holds.
type Body<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never
type Data<Op> = Body<Op> extends { data: infer D } ? D : never
type Returns<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>
type Members = TeamClient['members']

describe('team client return types match the generated types', () => {
  test('each method', () => {
    expectTypeOf<Returns<Members['list']>>().toEqualTypeOf<Data<ServicePaths['/api/team/members']['get']>>()
    expectTypeOf<Returns<Members['create']>>().toEqualTypeOf<
      Data<ServicePaths['/api/team/members/create']['post']>
    >()
    expectTypeOf<Returns<Members['invite']>>().toEqualTypeOf<
      Data<ServicePaths['/api/team/members/invite']['post']>
    >()
    expectTypeOf<Returns<Members['impersonate']>>().toEqualTypeOf<
      Data<ServicePaths['/api/team/members/{userId}/impersonation']['post']>
    >()
  })
})
