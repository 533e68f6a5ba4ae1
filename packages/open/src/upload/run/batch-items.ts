import type { ValidationIssue } from '@service-sdk/core'
import { defined } from '../material/defined.ts'
import { type AssetFields, refuseSource, uploadManyItemRule, validationError } from '../options/options.ts'
import type { UploadPlatform } from '../platform/platform.ts'
import type { UploadManyItem, UploadSource } from '../types.ts'

/** One file of a batch, its fields merged with the batch's. */
export interface BatchItem {
  source: unknown
  fields: AssetFields
  key: string | undefined
}

/**
 * Every item checked before anything starts: one `ServiceValidationError` listing all problems.
 * A bare source has no fields to check, only its kind (the batch's fields were checked once);
 * such items share one fields object.
 */
export function batchItems(
  platform: UploadPlatform,
  sources: Iterable<UploadSource | UploadManyItem>,
  shared: Pick<AssetFields, 'folderId' | 'description' | 'tags' | 'link'>,
): BatchItem[] {
  const issues: ValidationIssue[] = []
  const items: BatchItem[] = []
  const sharedFields = defined(shared)
  let index = 0
  for (const entry of sources) {
    const at = `sources.${index++}`
    const isItem = typeof entry === 'object' && entry !== null && 'source' in entry
    if (!isItem) {
      issues.push(...refuseSource(platform, entry, at))
      items.push({ source: entry, key: undefined, fields: sharedFields })
      continue
    }
    const checked = uploadManyItemRule(entry)
    if (checked.issues.length > 0) {
      for (const issue of checked.issues)
        issues.push({ path: [at, ...issue.path.map(String)].join('.'), message: issue.message })
      continue
    }
    const { source, key, ...fields } = checked.value
    issues.push(...refuseSource(platform, source, `${at}.source`))
    items.push({ source, key, fields: { ...sharedFields, ...defined(fields) } })
  }
  if (issues.length > 0) throw validationError('uploadMany sources', issues)
  return items
}
