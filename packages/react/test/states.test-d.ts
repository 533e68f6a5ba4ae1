import type { UploadedAsset, UploadFailure } from '@service-sdk/open'
import type { FolderChoice, SelectorError } from '@service-sdk/selector'
import { describe, expectTypeOf, test } from 'vitest'
import type { FolderPickerHandle, SingleUpload, UploadItem } from '../src/index.ts'

// The hooks' states are discriminated unions: `status` narrows what is there.

describe('useUploads / useUpload: status narrows asset and error', () => {
  test("an item: 'done' has its asset, 'failed' a typed error; before, neither", () => {
    const item = {} as UploadItem
    // @ts-expect-error: the asset may not be there yet
    const early: UploadedAsset = item.asset
    void early
    if (item.status === 'done') expectTypeOf(item.asset).toEqualTypeOf<UploadedAsset>()
    if (item.status === 'failed') {
      expectTypeOf(item.error).toEqualTypeOf<UploadFailure>()
      expectTypeOf(item.error.supportId).toEqualTypeOf<string | undefined>()
      expectTypeOf<'checksum_mismatch'>().toExtend<typeof item.error.code>()
    }
    if (item.status === 'uploading') {
      expectTypeOf(item.asset).toEqualTypeOf<undefined>()
      expectTypeOf(item.error).toEqualTypeOf<undefined>()
    }
  })

  test('useUpload: the same narrowing on the hook itself, and idle has no item', () => {
    const upload = {} as SingleUpload
    if (upload.status === 'done') expectTypeOf(upload.asset).toEqualTypeOf<UploadedAsset>()
    if (upload.status === 'failed') expectTypeOf(upload.error).toEqualTypeOf<UploadFailure>()
    if (upload.status === 'idle') expectTypeOf(upload.item).toEqualTypeOf<undefined>()
    // @ts-expect-error: no such status
    if (upload.status === 'complete') void upload
  })
})

test("useFolderPicker: 'picked' has the choice, 'failed' the SelectorError", () => {
  const picker = {} as FolderPickerHandle
  // @ts-expect-error: the choice is there only once picked
  const early: FolderChoice = picker.choice
  void early
  if (picker.status === 'picked') expectTypeOf(picker.choice).toEqualTypeOf<FolderChoice>()
  if (picker.status === 'failed') expectTypeOf(picker.error).toEqualTypeOf<SelectorError>()
  if (picker.status === 'cancelled') expectTypeOf(picker.choice).toEqualTypeOf<undefined>()
})
