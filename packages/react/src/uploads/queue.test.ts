import {
  ServiceValidationError,
  type Upload,
  UploadError,
  type UploadedAsset,
  type UploadProgress,
  type UploadSource,
} from '@service-sdk/open'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { UploadQueue } from './queue.ts'

// The queue alone, with a scripted stand-in for the open client's upload handle (the real
// client runs in test/browser.test.ts).

interface FakeUpload extends Upload {
  calls: string[]
  emit(progress: Partial<UploadProgress>): void
  succeed(): void
  fail(error: unknown): void
}

const asset = (key: string): UploadedAsset =>
  ({
    id: '1',
    key,
    name: key,
    accessUrl: `https://cdn.test/${key}`,
    size: 3,
    extension: 'bin',
  }) as UploadedAsset

function fakeUpload(key: string): FakeUpload {
  let settle!: { resolve(a: UploadedAsset): void; reject(e: unknown): void }
  const newDone = () => new Promise<UploadedAsset>((resolve, reject) => (settle = { resolve, reject }))
  let done = newDone()
  const listeners = new Set<(p: UploadProgress) => void>()
  let progress: UploadProgress = {
    phase: 'credentials',
    loaded: 0,
    total: 100,
    key,
    rate: undefined,
    etaMs: undefined,
    paused: false,
  }
  const upload: FakeUpload = {
    calls: [],
    key,
    uploadId: undefined,
    get progress() {
      return progress
    },
    onProgress(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    done: () => done,
    async abort(reason) {
      upload.calls.push('abort')
      settle.reject(reason ?? new DOMException('aborted', 'AbortError'))
    },
    async pause() {
      upload.calls.push('pause')
    },
    resume() {
      upload.calls.push('resume')
    },
    retry() {
      upload.calls.push('retry')
      done = newDone()
      return done
    },
    emit(change) {
      progress = { ...progress, ...change }
      for (const listener of listeners) listener(progress)
    },
    succeed: () => settle.resolve(asset(key)),
    fail: (error) => settle.reject(error),
  }
  return upload
}

function setup(concurrency = 2, throttleMs = 0) {
  const started: FakeUpload[] = []
  const client = {
    upload: vi.fn((source: UploadSource) => {
      const upload = fakeUpload(String(source))
      started.push(upload)
      return upload
    }),
  }
  const settled: string[] = []
  const queue = new UploadQueue({
    client,
    defaults: { folderId: '7' },
    concurrency,
    throttleMs,
    onSettled: (item) => settled.push(`${item.name}:${item.status}`),
  })
  return { queue, client, started, settled }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const statuses = (queue: UploadQueue) => queue.getSnapshot().items.map((i) => `${i.name}:${i.status}`)

afterEach(() => {
  vi.useRealTimers()
})

describe('UploadQueue', () => {
  test('starts `concurrency` uploads at once with the defaults, and the next as one settles', async () => {
    const { queue, client, started, settled } = setup(2)
    queue.add(['a', 'b', 'c'], { tags: ['x'] })
    expect(client.upload).toHaveBeenCalledTimes(2)
    expect(client.upload).toHaveBeenCalledWith('a', { folderId: '7', tags: ['x'] })
    await tick()
    expect(statuses(queue)).toEqual(['a:uploading', 'b:uploading', 'c:queued'])
    started[0]!.succeed()
    await tick()
    expect(client.upload).toHaveBeenCalledTimes(3)
    expect(statuses(queue)).toEqual(['a:done', 'b:uploading', 'c:uploading'])
    expect(queue.getSnapshot().items[0]!.asset).toMatchObject({ key: 'a' })
    expect(settled).toEqual(['a:done'])
  })

  test('pause and resume reach the running upload; a paused queued upload does not start', async () => {
    const { queue, client, started } = setup(1)
    const [a, b] = queue.add(['a', 'b'])
    queue.pause(b)
    queue.pause(a)
    expect(started[0]!.calls).toEqual(['pause'])
    started[0]!.succeed()
    await tick()
    expect(client.upload).toHaveBeenCalledTimes(1)
    expect(statuses(queue)).toEqual(['a:done', 'b:paused'])
    queue.resume()
    expect(client.upload).toHaveBeenCalledTimes(2)
    await tick()
    expect(statuses(queue)).toEqual(['a:done', 'b:uploading'])
  })

  test('abort: the running upload is aborted and settles aborted; a queued one never starts', async () => {
    const { queue, client, started, settled } = setup(1)
    const [a] = queue.add(['a', 'b'])
    const waited = queue.wait(a!)
    queue.abort()
    expect(started[0]!.calls).toEqual(['abort'])
    expect(await waited).toBeUndefined()
    await tick()
    expect(client.upload).toHaveBeenCalledTimes(1)
    expect(statuses(queue)).toEqual(['a:aborted', 'b:aborted'])
    expect(settled.sort()).toEqual(['a:aborted', 'b:aborted'])
  })

  test('retry: a failed upload continues through its handle; an aborted one starts afresh', async () => {
    const { queue, client, started } = setup(1)
    const [a] = queue.add('a')
    const failure = new UploadError({ message: 'part 3 failed', code: 'InternalError', partNumber: 3 })
    started[0]!.fail(failure)
    expect(await queue.wait(a!)).toBeUndefined()
    await tick()
    expect(queue.getSnapshot().items[0]).toMatchObject({ status: 'failed', error: failure })
    queue.retry(a)
    expect(started[0]!.calls).toEqual(['retry'])
    const again = queue.wait(a!)
    started[0]!.succeed()
    expect(await again).toMatchObject({ key: 'a' })

    const [b] = queue.add('b')
    queue.abort(b)
    await tick()
    queue.retry(b)
    expect(client.upload).toHaveBeenCalledTimes(3)
    await tick()
    expect(queue.getSnapshot().items[1]).toMatchObject({ status: 'uploading', error: undefined })
  })

  test('a client that throws (bad options) fails that upload and lets the next start', async () => {
    const { queue } = setup(1)
    const refused = new ServiceValidationError('upload options', [{ path: 'folderId', message: 'bad' }])
    queue.settings.client = {
      upload: () => {
        throw refused
      },
    }
    const [a] = queue.add('a')
    expect(await queue.wait(a!)).toBeUndefined()
    await tick()
    expect(queue.getSnapshot().items[0]).toMatchObject({ status: 'failed', error: refused })
  })

  test('a failure that is not one an upload has (a bug) is reported as an UploadError upload_failed, its cause kept', async () => {
    const { queue, started } = setup(1)
    const [a] = queue.add('a')
    const bug = new TypeError('x is not a function')
    started[0]!.fail(bug)
    expect(await queue.wait(a!)).toBeUndefined()
    await tick()
    const item = queue.getSnapshot().items[0]
    expect(item).toMatchObject({ status: 'failed', error: { code: 'upload_failed', cause: bug } })
    expect(UploadError.isInstance(item?.error)).toBe(true)
  })

  test('progress is published at most once per throttleMs; a status change at once', async () => {
    vi.useFakeTimers()
    const { queue, started } = setup(1, 100)
    const seen: number[] = []
    queue.subscribe(() => seen.push(queue.getSnapshot().items[0]?.progress.loaded ?? -1))
    queue.add('a')
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toEqual([0])
    for (let loaded = 10; loaded <= 50; loaded += 10) started[0]!.emit({ phase: 'uploading', loaded })
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toEqual([0])
    await vi.advanceTimersByTimeAsync(100)
    expect(seen).toEqual([0, 50])
    expect(queue.getSnapshot().items[0]!.fraction).toBe(0.5)
    expect(queue.getSnapshot().summary).toMatchObject({ loaded: 50, total: 100, fraction: 0.5 })
    queue.pause()
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toEqual([0, 50, 50])
  })

  test('pause() settles with the bytes counted while it waited in the snapshot, throttle or not', async () => {
    vi.useFakeTimers()
    const { queue, started } = setup(1, 100)
    queue.add('a')
    await vi.advanceTimersByTimeAsync(0)
    const upload = started[0]!
    upload.emit({ phase: 'uploading', loaded: 50 })
    await vi.advanceTimersByTimeAsync(100)
    // The part in flight finishes sending 10 ms into the pause, which waits for it.
    upload.pause = async () => {
      upload.calls.push('pause')
      await new Promise((resolve) => setTimeout(resolve, 10))
      upload.emit({ loaded: 80 })
    }
    const paused = queue.pause()
    await vi.advanceTimersByTimeAsync(10)
    await paused
    expect(queue.getSnapshot().items[0]).toMatchObject({ status: 'paused', progress: { loaded: 80 } })
  })

  test('an unchanged upload keeps its item object across snapshots', async () => {
    const { queue, started } = setup(2)
    queue.add(['a', 'b'])
    await tick()
    const before = queue.getSnapshot().items
    started[1]!.emit({ loaded: 5 })
    await tick()
    const after = queue.getSnapshot().items
    expect(after[0]).toBe(before[0])
    expect(after[1]).not.toBe(before[1])
  })

  test('unmount aborts everything a microtask later, unless mounted again first (StrictMode)', async () => {
    const { queue, started } = setup(2)
    queue.add(['a', 'b'])
    queue.unmount()
    queue.mount()
    await tick()
    expect(started.map((u) => u.calls)).toEqual([[], []])
    queue.unmount()
    await tick()
    expect(started.map((u) => u.calls)).toEqual([['abort'], ['abort']])
    expect(statuses(queue)).toEqual(['a:aborted', 'b:aborted'])
    expect(queue.getSnapshot().items[0]!.error).toMatchObject({ name: 'AbortError' })
  })

  test('remove drops an upload (aborting it); clear drops the finished ones', async () => {
    const { queue, started } = setup(3)
    const [a] = queue.add(['a', 'b', 'c'])
    queue.remove(a!)
    expect(started[0]!.calls).toEqual(['abort'])
    started[2]!.succeed()
    await tick()
    expect(statuses(queue)).toEqual(['b:uploading', 'c:done'])
    queue.clear()
    await tick()
    expect(statuses(queue)).toEqual(['b:uploading'])
    expect(queue.ids()).toEqual([queue.getSnapshot().items[0]!.id])
  })
})
