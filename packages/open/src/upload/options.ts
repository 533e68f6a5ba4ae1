import { ServiceValidationError, type ValidationIssue } from '@service-sdk/core'
import { checkId, DEFAULT_RETRY, NOT_AN_ID, parseInput, type RetryPolicy } from '@service-sdk/core/internal'
import * as z from 'zod/mini'
import type { CheckpointStore } from './checkpoint.ts'
import { refuseRelativeKey } from './key.ts'
import type { UploadPlatform } from './platform.ts'
import type { UploadDefaults } from './types.ts'

const KiB = 1024
const MiB = 1024 * KiB
/** OSS: every part but the last is at least 100 KiB, at most 5 GiB. */
export const MIN_PART_SIZE = 100 * KiB
export const MAX_PART_SIZE = 5 * 1024 * MiB
export const MAX_PARTS = 10_000

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

// zod/mini, not classic zod: these checks run when upload() is called, so they are in the browser
// entry, where classic zod alone would weigh about 25 KB gzip (packages/open/test/browser-size.test.ts).
// The English messages classic zod installs when it loads: the same text whether or not the
// client's (classic) schemas have been loaded yet.
z.config(z.locales.en())

const fn = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'function', { message: `must be a function (${what})` })

const signal = z.custom<AbortSignal>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as AbortSignal).aborted === 'boolean' &&
    typeof (v as AbortSignal).addEventListener === 'function',
  { message: 'must be an AbortSignal' },
)

const checkpointStore = z.custom<CheckpointStore>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    ['load', 'save', 'remove'].every(
      (m) => typeof (v as unknown as Record<string, unknown>)[m] === 'function',
    ),
  { message: 'must be a directory path or a store with load, save and remove' },
)

/** core's `idSchema` rule (`checkId`), in zod/mini. */
const id = z.pipe(
  z.custom<string | number | bigint>((v) => ['string', 'number', 'bigint'].includes(typeof v), {
    error: (issue) => (issue.input === undefined ? 'is required' : NOT_AN_ID),
  }),
  z.transform((value: string | number | bigint, ctx): string => {
    const checked = checkId(value)
    if ('id' in checked) return checked.id
    ctx.issues.push({ code: 'custom', message: checked.problem, input: value })
    return z.NEVER
  }),
)

const text = z.string().check(z.minLength(1, 'must not be empty'))
const pixels = z.int('must be an integer (pixels)').check(z.nonnegative('must not be negative'))

const retry = z.union([
  z.literal(false),
  z.strictObject({
    maxRetries: z.optional(z.int().check(z.minimum(0), z.maximum(100))),
    initialDelayMs: z.optional(z.number().check(z.minimum(0))),
    maxDelayMs: z.optional(z.number().check(z.minimum(0))),
  }),
])

const transferShape = {
  partSize: z.optional(
    z
      .int('must be an integer (bytes)')
      .check(
        z.minimum(MIN_PART_SIZE, `must be at least ${MIN_PART_SIZE} bytes (100 KiB, OSS's smallest part)`),
        z.maximum(MAX_PART_SIZE, 'must be at most 5 GiB'),
      ),
  ),
  parallel: z.optional(z.int().check(z.minimum(1), z.maximum(64))),
  retry: z.optional(retry),
  timeoutMs: z.optional(z.number().check(z.positive())),
  checkpoint: z.optional(z.union([text, checkpointStore])),
  keepPartsOnFailure: z.optional(z.boolean()),
  signal: z.optional(signal),
}

const fieldsShape = {
  folderId: z.optional(id),
  name: z.optional(text),
  extension: z.optional(
    z.pipe(
      text,
      z.pipe(
        z.transform((e: string) => e.replace(/^\./, '')),
        text,
      ),
    ),
  ),
  description: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  link: z.optional(z.string()),
  width: z.optional(pixels),
  height: z.optional(pixels),
}

const key = text.check(
  z.superRefine((value, ctx) => {
    const refused = refuseRelativeKey(value)
    if (refused) ctx.addIssue({ code: 'custom', message: refused, input: value })
  }),
)

const concurrency = z.optional(z.int().check(z.minimum(1), z.maximum(256)))

export const uploadOptionsSchema = z.strictObject({
  ...fieldsShape,
  ...transferShape,
  orgId: z.optional(id),
  key: z.optional(key),
  onProgress: z.optional(fn<(progress: never) => void>('onProgress')),
})

export const uploadManyItemSchema = z.strictObject({
  ...fieldsShape,
  source: z.unknown(),
  key: z.optional(key),
})

export const uploadManyOptionsSchema = z.strictObject({
  folderId: fieldsShape.folderId,
  description: fieldsShape.description,
  tags: fieldsShape.tags,
  link: fieldsShape.link,
  ...transferShape,
  orgId: z.optional(id),
  concurrency,
  onProgress: z.optional(fn<(progress: never) => void>('onProgress')),
})

export const uploadDefaultsSchema = z.strictObject({
  partSize: transferShape.partSize,
  parallel: transferShape.parallel,
  retry: transferShape.retry,
  timeoutMs: transferShape.timeoutMs,
  credentialTtlMs: z.optional(z.number().check(z.minimum(0))),
  concurrency,
})

export type AssetFields = z.output<z.ZodMiniObject<typeof fieldsShape>>

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
  const parsed = parseInput(uploadDefaultsSchema, defaults ?? {}, 'open client options (uploads)')
  return {
    partSize: parsed.partSize ?? DEFAULTS.partSize,
    parallel: parsed.parallel ?? DEFAULTS.parallel,
    retry: retryPolicy(parsed.retry, DEFAULT_UPLOAD_RETRY),
    timeoutMs: parsed.timeoutMs ?? DEFAULTS.timeoutMs,
    credentialTtlMs: parsed.credentialTtlMs ?? DEFAULTS.credentialTtlMs,
    concurrency: parsed.concurrency ?? DEFAULTS.concurrency,
  }
}

function retryPolicy(retry: z.output<typeof transferShape.retry>, base: RetryPolicy): RetryPolicy {
  if (retry === false) return { ...base, maxRetries: 0 }
  return {
    ...base,
    maxRetries: retry?.maxRetries ?? base.maxRetries,
    initialDelayMs: retry?.initialDelayMs ?? base.initialDelayMs,
    maxDelayMs: retry?.maxDelayMs ?? base.maxDelayMs,
  }
}

export function transferSettings(
  options: { [K in keyof typeof transferShape]?: z.output<(typeof transferShape)[K]> },
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

/** Drops `undefined` fields (the material schema and `exactOptionalPropertyTypes` want them absent). */
export function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never
}

export const cleanupOptionsSchema = z.strictObject({
  olderThanMs: z.optional(z.number().check(z.minimum(0, 'must not be negative'))),
  signal: z.optional(signal),
})
