import { describe, expect, it } from 'vitest'
import type { EventRow } from '../rows.ts'
import { type ClaimRow, claimedFrom, claimRow, EVENT_COLUMNS } from './sqlite-rows.ts'

const row: EventRow = {
  key: 'k',
  event_type: 'X',
  body: '{}',
  received_at: 1,
  status: 'processing',
  attempts: 2,
  next_attempt_at: 3,
  lease_until: 4,
  last_error: 'boom',
  finished_at: null,
  order_key: 'o',
  originals: null,
}
const asArray: ClaimRow = ['k', 'X', '{}', 1, 'processing', 2, 3, 4, 'boom', null, 'o', null]

describe('claimed rows', () => {
  it('are arrays in EVENT_COLUMNS order, made from objects where node:sqlite returned those', () => {
    expect(EVENT_COLUMNS.map((column) => row[column])).toEqual(asArray)
    expect(claimRow(row)).toEqual(asArray)
    expect(claimRow(asArray)).toBe(asArray)
  })

  it('read back as the claimed event', () => {
    expect(claimedFrom(asArray)).toEqual({
      key: 'k',
      eventType: 'X',
      body: '{}',
      receivedAt: 1,
      orderKey: 'o',
      status: 'processing',
      attempts: 2,
      nextAttemptAt: 3,
      leaseUntil: 4,
      lastError: 'boom',
      finishedAt: null,
    })
  })

  it('put back the strings their row holds as digests', () => {
    const digested: ClaimRow = [
      '~sha256:1',
      'X',
      '{}',
      1,
      'processing',
      2,
      3,
      4,
      null,
      null,
      '~sha256:2',
      '{"key":"k\\u0000","orderKey":"\\ud800"}',
    ]
    expect(claimedFrom(digested)).toMatchObject({ key: 'k\u0000', orderKey: '\ud800' })
  })
})
