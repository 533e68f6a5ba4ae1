import type { SavedMaterial } from '@service-sdk/core'
import { materialSaveInputSchema } from '@service-sdk/core/schemas'
import { createFakeFetch, openSuccess } from '@service-sdk/core/testing'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type OpenApi, saveUploaded } from './api.ts'
import { createOpenClient } from './client.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

// In the order of materialOf's fields (the schema's): the body is the same byte for byte.
const materials = [
  { key: 'dir/a/one.bin', folderId: '7', name: 'one', extension: 'bin', size: 1 },
  { key: 'dir/b/two.bin', name: 'two', extension: 'bin', size: 2, tags: ['x'] },
]

function client() {
  const fetch = createFakeFetch((request) => {
    const { materials: sent } = JSON.parse(request.body ?? '{}') as { materials: Array<{ key: string }> }
    return openSuccess({
      materials: sent.map((m, i) => ({ id: 10 + i, key: m.key, name: 'n', accessUrl: 'u' })),
    })
  })
  return {
    open: createOpenClient({ openUrl: 'https://open.test', token: { type: 'Bearer', value: 'T' }, fetch }),
    fetch,
  }
}

describe("the uploader's material-save", () => {
  test('sends what materials.save sends, without checking each material again', async () => {
    const validate = vi.spyOn(materialSaveInputSchema['~standard'], 'validate')
    const { open, fetch } = client()
    const saved = await saveUploaded(open, { orgId: '1001', materials })
    expect(validate).not.toHaveBeenCalled()
    await open.materials.save({ orgId: '1001', materials })
    expect(validate).toHaveBeenCalledTimes(1)
    const [uploaded, checked] = fetch.requests
    expect(uploaded?.body).toBe(checked?.body)
    expect(saved.map((s) => [s.id, s.key])).toEqual([
      ['10', 'dir/a/one.bin'],
      ['11', 'dir/b/two.bin'],
    ])
  })

  test('an API made elsewhere (a wrapper, a test double) is called through its materials.save', async () => {
    const answer: SavedMaterial[] = [{ id: '1', key: 'dir/a/one.bin', name: 'one', accessUrl: 'u' }]
    const save = vi.fn(async () => answer)
    const api = { materials: { save } } as unknown as OpenApi
    expect(await saveUploaded(api, { materials: [materials[0] as (typeof materials)[0]] })).toBe(answer)
    expect(save).toHaveBeenCalledWith({ materials: [materials[0]] }, undefined)
  })
})
