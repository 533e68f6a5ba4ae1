import { ServiceResponseError, type UploadCredential } from '@service-sdk/core'
import { createRedactor } from '@service-sdk/core/internal'
import { describe, expect, test } from 'vitest'
import { credentialAccess, type StorageAccess } from '../oss/access.ts'
import { createAccessCache } from './access-cache.ts'
import { stsAccess } from './sts-access.ts'

const credential = (n: number): UploadCredential => ({
  endPoint: 'oss-cn-hangzhou.aliyuncs.com',
  bucket: 'b',
  dir: 'upload/1/',
  accessKeyId: `STS.${n}`,
  accessKeySecret: `secret-${n}`,
  securityToken: `token-${n}`,
})

describe('store access cache', () => {
  function cache(ttlMs: number) {
    let now = 1_000
    let issued = 0
    const seen: StorageAccess[] = []
    let release: (() => void) | undefined
    const gate = { hold: false }
    const c = createAccessCache(
      async () => {
        if (gate.hold) await new Promise<void>((resolve) => (release = resolve))
        const access = credentialAccess(credential(++issued))
        seen.push(access)
        return access
      },
      { ttlMs, now: () => now },
    )
    return {
      c,
      seen,
      gate,
      issued: () => issued,
      tick: (ms: number) => (now += ms),
      release: () => release?.(),
    }
  }

  test('one sts-tmp call for every caller while fresh; a new one once ttlMs has passed', async () => {
    const { c, issued, tick, seen } = cache(300_000)
    const [a, b] = await Promise.all([c.get(), c.get()])
    expect(a).toBe(b)
    tick(299_999)
    expect(await c.get()).toBe(a)
    tick(1)
    const fresh = await c.get()
    expect(fresh.access.credential?.accessKeyId).toBe('STS.2')
    expect(issued()).toBe(2)
    expect(seen.map((s) => s.credential?.accessKeyId)).toEqual(['STS.1', 'STS.2'])
  })

  test('callers waiting together share the call; invalidating an old entry does not drop a newer one', async () => {
    const { c, issued, gate, release } = cache(300_000)
    gate.hold = true
    const waiting = [c.get(), c.get(), c.get()]
    await new Promise((r) => setTimeout(r, 0))
    release()
    const [first] = await Promise.all(waiting)
    gate.hold = false
    expect(issued()).toBe(1)
    c.invalidate(first!)
    const second = await c.get()
    c.invalidate(first!)
    expect(await c.get()).toBe(second)
    expect(issued()).toBe(2)
  })

  test("a caller's abort rejects only that caller", async () => {
    const { c, gate, release } = cache(300_000)
    gate.hold = true
    const controller = new AbortController()
    const aborted = c.get(controller.signal)
    const other = c.get()
    await new Promise((r) => setTimeout(r, 0))
    controller.abort(new Error('stop'))
    await expect(aborted).rejects.toThrow('stop')
    release()
    expect((await other).access.credential?.accessKeyId).toBe('STS.1')
  })

  test('an incomplete credential from sts-tmp is a ServiceResponseError, without its values', async () => {
    const fetch = stsAccess({
      credentials: async () => ({ ...credential(1), securityToken: undefined }) as never,
      redact: createRedactor(),
    })
    const error = await createAccessCache(fetch, { ttlMs: 1 })
      .get()
      .catch((e: unknown) => e)
    expect(ServiceResponseError.isInstance(error)).toBe(true)
    expect(String((error as Error).message)).toMatch(/securityToken/)
    expect(JSON.stringify(error)).not.toContain('secret-1')
  })
})
