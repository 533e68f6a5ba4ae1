import { describe, expect, it } from 'vitest'
import { unknownValues, warning, warningLog } from './warnings.ts'

describe('warningLog', () => {
  it('logs each (event type, field, value) once, array indexes apart, remembering a bounded number', () => {
    const lines: Array<Record<string, unknown>> = []
    const log = warningLog((_message, fields) => void lines.push(fields))
    log('FOLDER_CONTENT_UPDATE', 'k1', [warning(['assets', 0, 'source'], 4, 'known: 1, 2, 3')])
    log('FOLDER_CONTENT_UPDATE', 'k2', [warning(['assets', 7, 'source'], 4, 'known: 1, 2, 3')])
    expect(lines).toEqual([
      {
        eventType: 'FOLDER_CONTENT_UPDATE',
        key: 'k1',
        path: 'assets.0.source',
        value: '4',
        expected: 'known: 1, 2, 3',
      },
    ])
    log('FOLDER_CONTENT_UPDATE', 'k3', [warning(['assets', 0, 'source'], 5, 'known: 1, 2, 3')])
    log('MATERIAL_DELETED', 'k4', [warning(['payload', 'deleteAction'], 4, 'a string')])
    expect(lines).toHaveLength(3)

    // A thousand other values later, the first pair has been forgotten and is logged again.
    for (let i = 0; i < 1000; i++) log('MATERIAL_DELETED', `k${i}`, [warning(['payload', 'x'], i, 'm')])
    expect(lines).toHaveLength(1003)
    log('FOLDER_CONTENT_UPDATE', 'k5', [warning(['assets', 2, 'source'], 4, 'known: 1, 2, 3')])
    expect(lines).toHaveLength(1004)
  })

  it('shortens long values', () => {
    const lines: Array<Record<string, unknown>> = []
    warningLog((_m, fields) => void lines.push(fields))('X', 'k', [warning(['a'], 'z'.repeat(500), 'm')])
    expect(String(lines[0]?.value).length).toBeLessThanOrEqual(101)
  })
})

describe('unknownValues', () => {
  it('reports values outside the known ones, at every array item, ignoring absent and null', () => {
    expect(
      unknownValues('FOLDER_CONTENT_UPDATE', {
        type: 'ADD',
        assets: [{ source: 2 }, { source: 9 }, { source: null }, {}],
      }).map((w) => [w.path, w.value]),
    ).toEqual([['assets.1.source', 9]])
    expect(unknownValues('MATERIAL_SHARED', { payload: { x: 1 } })).toEqual([])
  })
})
