import { describe, expect, test } from 'vitest'
import type { UploadManyProgress } from '../types.ts'
import { BatchProgress } from './batch-progress.ts'
import { createProgressTracker } from './progress.ts'

const silent = { debug() {}, info() {}, warn() {}, error() {} }

describe('batch progress', () => {
  test("a file's bytes are folded into the batch's view; its key or phase alone tells the batch nothing", () => {
    const seen: UploadManyProgress[] = []
    const batch = new BatchProgress(2, (p) => seen.push(p), silent)
    const first = createProgressTracker(batch.file(0))
    const second = createProgressTracker(batch.file(1))
    first.key('dir/a.bin')
    first.phase('uploading')
    expect(seen.map((p) => p.phase)).toEqual(['uploading'])
    first.total(10)
    second.phase('uploading')
    second.key('dir/b.bin')
    second.total(5)
    first.sent(0, 10)
    first.stored(0, 10)
    second.sent(0, 5)
    expect(seen.map((p) => [p.loaded, p.total])).toEqual([
      [0, 0],
      [0, 10],
      [0, 15],
      [10, 15],
      [15, 15],
    ])
    expect(batch.current).toMatchObject({ phase: 'uploading', loaded: 15, total: 15 })
  })
})
