import { constants, DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { ensureSchema } from './sqlite-schema.ts'
import { prepareStatements } from './sqlite-statements.ts'

/** SQLite's plan for one of the store's statements (its steps' details, joined). */
function planOf(db: DatabaseSync, sql: string, ...values: Array<string | number>): string {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as Array<{ detail: string }>
  return steps.map((s) => s.detail).join(' | ')
}

describe('listing by status', () => {
  const db = new DatabaseSync(':memory:')
  ensureSchema(db, 'inbox')
  const { listStatus } = prepareStatements(db, 'inbox')

  // Done events are most rows of a kept inbox: a listing of the few pending or processing ones
  // must not walk through them.
  it.each([
    ['pending', 'inbox_due'],
    ['processing', 'inbox_lease'],
    ['dead', 'inbox_dead'],
  ] as const)('reads %s events through their partial index', (status, index) => {
    const plan = planOf(db, listStatus[status].sourceSQL, '', 100)
    expect(plan).toContain(`USING INDEX ${index}`)
    expect(plan).not.toContain('USING INTEGER PRIMARY KEY')
  })
})

describe('statements with a LIMIT', () => {
  // SQLite calls the authorizer while it prepares a statement, and only then: a call during a
  // run means the run prepared the statement again.
  it('are not prepared again each time they run with their values bound', () => {
    const db = new DatabaseSync(':memory:')
    ensureSchema(db, 'inbox')
    const sql = prepareStatements(db, 'inbox')
    let prepared = 0
    db.setAuthorizer(() => {
      prepared++
      return constants.SQLITE_OK
    })
    const runs = {
      claimExpired: () => sql.claimExpired.all('w:1', 2000, 1000, 64),
      claimDue: () => sql.claimDue.all('w:1', 2000, 1000, 64),
      listAll: () => sql.listAll.all('', 100),
      listPending: () => sql.listStatus.pending.all('', 100),
      listDone: () => sql.listStatus.done.all('', 100),
    }
    for (const [name, run] of Object.entries(runs)) {
      run() // Setting the authorizer expired every statement: this run prepares it again.
      prepared = 0
      run()
      run()
      expect({ name, prepared }).toEqual({ name, prepared: 0 })
    }
  })
})
