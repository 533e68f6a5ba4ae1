import { describe, expect, test } from 'vitest'
import { ServiceValidationError } from '../errors/errors.ts'
import { expandPath } from './operation.ts'

describe('expandPath', () => {
  test('a path without parameters comes back as it is', () => {
    expect(expandPath('/api/team/members')).toBe('/api/team/members')
    expect(expandPath('/api/team/members', { userId: '1' })).toBe('/api/team/members')
  })

  test('fills every parameter, URL-encoded', () => {
    expect(
      expandPath('/api/team/members/{userId}/x/{other}', { userId: '16736031331617996', other: 'a/b c' }),
    ).toBe('/api/team/members/16736031331617996/x/a%2Fb%20c')
  })

  test('a missing parameter is a ServiceValidationError naming it, before any request', () => {
    let caught: unknown
    try {
      expandPath('/api/team/members/{userId}', {})
    } catch (error) {
      caught = error
    }
    expect(ServiceValidationError.isInstance(caught)).toBe(true)
    expect((caught as ServiceValidationError).issues).toEqual([{ path: 'userId', message: 'is required' }])
  })
})
