import { ServiceValidationError, type ValidationIssue } from '@service-sdk/core'
import { checkId, DEFAULT_RETRY, NOT_AN_ID, type RetryPolicy } from '@service-sdk/core/internal'
import type { CheckpointStore, ListableCheckpointStore } from '../checkpoints/checkpoint.ts'
import { refuseRelativeKey } from '../engine/key.ts'
import type { UploadPlatform } from '../platform/platform.ts'
import type { UploadDefaults } from '../types.ts'
import * as r from './option-rules.ts'

const KiB = 1024
const MiB = 1024 * KiB
/** OSS: every part but the last is at least 100 KiB, at most 5 GiB. */
export const MIN_PART_SIZE = 100 * KiB
export const MAX_PART_SIZE = 5 * 1024 * MiB

/**
 * Core's retry policy, with one more retry than an API call's: a part is large and its upload
 * idempotent. OSS sends no `Retry-After`; `maxRetryAfterMs` is core's and unused here.
 */
export const DEFAULT_UPLOAD_RETRY: RetryPolicy = { ...DEFAULT_RETRY, maxRetries: 3 }

export const DEFAULTS = {
  partSize: 8 * MiB,
  parallel: 4,
  concurrency: 8,
  timeoutMs: 60_000,
  credentialTtlMs: 5 * 60_000,
}

// The checks run synchronously when upload(), uploadMany() or createOpenClient() is called, so
// they are in the browser entry: hand-written rules (option-rules.ts) rather than zod/mini.

const fn = <T>(what: string) => r.custom<T>((v) => typeof v === 'function', `must be a function (${what})`)

const signal = r.custom<AbortSignal>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as AbortSignal).aborted === 'boolean' &&
    typeof (v as AbortSignal).addEventListener === 'function',
  'must be an AbortSignal',
)

const checkpointStore = r.custom<CheckpointStore>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    ['load', 'save', 'remove'].every(
      (m) => typeof (v as unknown as Record<string, unknown>)[m] === 'function',
    ),
  'must be a directory path or a store with load, save and remove',
)

/** core's `idSchema` rule (`checkId`): the id's canonical decimal string. */
const id = r.pipe(
  r.custom<string | number | bigint>(
    (v) => ['string', 'number', 'bigint'].includes(typeof v),
    (input) => (input === undefined ? 'is required' : NOT_AN_ID),
  ),
  (value): r.Checked<string> => {
    const checked = checkId(value)
    return 'id' in checked
      ? { value: checked.id, issues: [] }
      : { value: '', issues: [{ path: [], message: checked.problem, fatal: true }] }
  },
)

const text = r.string('must not be empty')
const pixels = r.number(
  { int: true, message: 'must be an integer (pixels)' },
  r.atLeast(0, 'must not be negative'),
)
/** Without its leading dot, and not empty either way. */
const extension = r.pipe(text, (e) => text(e.replace(/^\./, '')))
const key = r.string('must not be empty', (v) => refuseRelativeKey(v))

interface RetryInput {
  maxRetries?: number | undefined
  initialDelayMs?: number | undefined
  maxDelayMs?: number | undefined
}

const retry = r.union(
  r.literalFalse,
  r.strictObject<RetryInput>({
    maxRetries: r.optional(r.number({ int: true }, r.atLeast(0), r.atMost(100))),
    initialDelayMs: r.optional(r.number({}, r.atLeast(0))),
    maxDelayMs: r.optional(r.number({}, r.atLeast(0))),
  }),
)

/** The transfer options as checked (`UploadTransferOptions`). */
export interface TransferOptions {
  partSize?: number | undefined
  parallel?: number | undefined
  retry?: RetryInput | false | undefined
  timeoutMs?: number | undefined
  checkpoint?: string | CheckpointStore | undefined
  keepPartsOnFailure?: boolean | undefined
  signal?: AbortSignal | undefined
}

const transferShape: r.Shape<TransferOptions> = {
  partSize: r.optional(
    r.number(
      { int: true, message: 'must be an integer (bytes)' },
      r.atLeast(MIN_PART_SIZE, `must be at least ${MIN_PART_SIZE} bytes (100 KiB, OSS's smallest part)`),
      r.atMost(MAX_PART_SIZE, 'must be at most 5 GiB'),
    ),
  ),
  parallel: r.optional(r.number({ int: true }, r.atLeast(1), r.atMost(64))),
  retry: r.optional(retry),
  timeoutMs: r.optional(r.number({}, r.above(0))),
  checkpoint: r.optional(r.union(text, checkpointStore)),
  keepPartsOnFailure: r.optional(r.boolean),
  signal: r.optional(signal),
}

/** The asset fields as checked: ids as decimal strings, the extension without its dot. */
export interface AssetFields {
  folderId?: string | undefined
  name?: string | undefined
  extension?: string | undefined
  description?: string | undefined
  tags?: string[] | undefined
  link?: string | undefined
  width?: number | undefined
  height?: number | undefined
}

const fieldsShape: r.Shape<AssetFields> = {
  folderId: r.optional(id),
  name: r.optional(text),
  extension: r.optional(extension),
  description: r.optional(r.string()),
  tags: r.optional(r.array(r.string())),
  link: r.optional(r.string()),
  width: r.optional(pixels),
  height: r.optional(pixels),
}

const concurrency = r.optional(r.number({ int: true }, r.atLeast(1), r.atMost(256)))
const onProgress = r.optional(fn<(progress: never) => void>('onProgress'))

export interface CheckedUploadOptions extends AssetFields, TransferOptions {
  orgId?: string | undefined
  key?: string | undefined
  onProgress?: ((progress: never) => void) | undefined
  saveAgain?: boolean | undefined
}

const saveAgain = r.optional(r.boolean)

export const uploadOptionsRule = r.strictObject<CheckedUploadOptions>({
  ...fieldsShape,
  ...transferShape,
  orgId: r.optional(id),
  key: r.optional(key),
  onProgress,
  saveAgain,
})

export interface CheckedUploadManyItem extends AssetFields {
  source: unknown
  key?: string | undefined
}

export const uploadManyItemRule = r.strictObject<CheckedUploadManyItem>({
  ...fieldsShape,
  source: r.unknown,
  key: r.optional(key),
})

export interface CheckedUploadManyOptions
  extends Pick<AssetFields, 'folderId' | 'description' | 'tags' | 'link'>,
    TransferOptions {
  orgId?: string | undefined
  concurrency?: number | undefined
  onProgress?: ((progress: never) => void) | undefined
  saveAgain?: boolean | undefined
}

export const uploadManyOptionsRule = r.strictObject<CheckedUploadManyOptions>({
  folderId: fieldsShape.folderId,
  description: fieldsShape.description,
  tags: fieldsShape.tags,
  link: fieldsShape.link,
  ...transferShape,
  orgId: r.optional(id),
  concurrency,
  onProgress,
  saveAgain,
})

interface CheckedDefaults extends Omit<TransferOptions, 'checkpoint' | 'keepPartsOnFailure' | 'signal'> {
  credentialTtlMs?: number | undefined
  concurrency?: number | undefined
}

export const uploadDefaultsRule = r.strictObject<CheckedDefaults>({
  partSize: transferShape.partSize,
  parallel: transferShape.parallel,
  retry: transferShape.retry,
  timeoutMs: transferShape.timeoutMs,
  credentialTtlMs: r.optional(r.number({}, r.atLeast(0))),
  concurrency,
})

export interface CheckedCleanupOptions {
  olderThanMs?: number | undefined
  checkpoint?: string | ListableCheckpointStore | undefined
  signal?: AbortSignal | undefined
}

const listableStore = r.custom<ListableCheckpointStore>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    ['load', 'save', 'remove', 'list', 'stale'].every(
      (m) => typeof (v as unknown as Record<string, unknown>)[m] === 'function',
    ),
  'must be a directory path or a store that lists its checkpoints (indexedDbCheckpoints())',
)

export const cleanupOptionsRule = r.strictObject<CheckedCleanupOptions>({
  olderThanMs: r.optional(r.number({}, r.atLeast(0, 'must not be negative'))),
  checkpoint: r.optional(r.union(text, listableStore)),
  signal: r.optional(signal),
})

/** How one object goes up, with every default applied. */
export interface TransferSettings {
  partSize: number
  parallel: number
  retry: RetryPolicy
  timeoutMs: number
  checkpoint: CheckpointStore | undefined
  /** A failed multipart upload keeps its parts and checkpoint for a retry. */
  keepPartsOnFailure: boolean
}

export interface ResolvedDefaults {
  partSize: number
  parallel: number
  retry: RetryPolicy
  timeoutMs: number
  credentialTtlMs: number
  concurrency: number
}

export function resolveDefaults(defaults: UploadDefaults | undefined): ResolvedDefaults {
  const parsed = r.parseWith(uploadDefaultsRule, defaults ?? {}, 'open client options (uploads)')
  return {
    partSize: parsed.partSize ?? DEFAULTS.partSize,
    parallel: parsed.parallel ?? DEFAULTS.parallel,
    retry: retryPolicy(parsed.retry, DEFAULT_UPLOAD_RETRY),
    timeoutMs: parsed.timeoutMs ?? DEFAULTS.timeoutMs,
    credentialTtlMs: parsed.credentialTtlMs ?? DEFAULTS.credentialTtlMs,
    concurrency: parsed.concurrency ?? DEFAULTS.concurrency,
  }
}

function retryPolicy(retry: TransferOptions['retry'], base: RetryPolicy): RetryPolicy {
  if (retry === false) return { ...base, maxRetries: 0 }
  return {
    ...base,
    maxRetries: retry?.maxRetries ?? base.maxRetries,
    initialDelayMs: retry?.initialDelayMs ?? base.initialDelayMs,
    maxDelayMs: retry?.maxDelayMs ?? base.maxDelayMs,
  }
}

export function transferSettings(
  options: TransferOptions,
  defaults: ResolvedDefaults,
  platform: UploadPlatform,
  keepPartsByDefault = true,
): TransferSettings {
  return {
    keepPartsOnFailure: options.keepPartsOnFailure ?? keepPartsByDefault,
    partSize: options.partSize ?? defaults.partSize,
    parallel: options.parallel ?? defaults.parallel,
    retry: retryPolicy(options.retry, defaults.retry),
    timeoutMs: options.timeoutMs ?? defaults.timeoutMs,
    checkpoint:
      typeof options.checkpoint === 'string'
        ? platform.checkpointDirectory(options.checkpoint)
        : options.checkpoint,
  }
}

/** The source's kind, checked with the options: a `ServiceValidationError` before anything starts. */
export function refuseSource(platform: UploadPlatform, source: unknown, path: string): ValidationIssue[] {
  const refused = platform.refuse(source)
  return refused === undefined ? [] : [{ path, message: refused }]
}

export function validationError(what: string, issues: ValidationIssue[]): ServiceValidationError {
  return new ServiceValidationError(what, issues)
}
