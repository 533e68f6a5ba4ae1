import { idSchema, ServiceValidationError, type ValidationIssue } from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import { z } from 'zod'
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

export interface UploadRetryPolicy {
  /** Retries after the first attempt of one request. */
  maxRetries: number
  initialDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_UPLOAD_RETRY: UploadRetryPolicy = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
}

export const DEFAULTS = {
  partSize: 8 * MiB,
  parallel: 4,
  concurrency: 8,
  timeoutMs: 60_000,
  credentialTtlMs: 5 * 60_000,
}

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
    ['load', 'save', 'remove'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
  { message: 'must be a directory path or a store with load, save and remove' },
)

const text = z.string().min(1, 'must not be empty')
const pixels = z.int('must be an integer (pixels)').nonnegative('must not be negative')

const retry = z.union([
  z.literal(false),
  z.strictObject({
    maxRetries: z.int().min(0).max(100).optional(),
    initialDelayMs: z.number().min(0).optional(),
    maxDelayMs: z.number().min(0).optional(),
  }),
])

const transferShape = {
  partSize: z
    .int('must be an integer (bytes)')
    .min(MIN_PART_SIZE, `must be at least ${MIN_PART_SIZE} bytes (100 KiB, OSS's smallest part)`)
    .max(MAX_PART_SIZE, 'must be at most 5 GiB')
    .optional(),
  parallel: z.int().min(1).max(64).optional(),
  retry: retry.optional(),
  timeoutMs: z.number().positive().optional(),
  checkpoint: z.union([text, checkpointStore]).optional(),
  keepPartsOnFailure: z.boolean().optional(),
  signal: signal.optional(),
}

const fieldsShape = {
  folderId: idSchema.optional(),
  name: text.optional(),
  extension: text
    .transform((e) => e.replace(/^\./, ''))
    .pipe(text)
    .optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  link: z.string().optional(),
  width: pixels.optional(),
  height: pixels.optional(),
}

const key = text.superRefine((value, ctx) => {
  const refused = refuseRelativeKey(value)
  if (refused) ctx.addIssue({ code: 'custom', message: refused })
})

export const uploadOptionsSchema = z.strictObject({
  ...fieldsShape,
  ...transferShape,
  orgId: idSchema.optional(),
  key: key.optional(),
  onProgress: fn<(progress: never) => void>('onProgress').optional(),
})

export const uploadManyItemSchema = z.strictObject({
  ...fieldsShape,
  source: z.unknown(),
  key: key.optional(),
})

export const uploadManyOptionsSchema = z.strictObject({
  folderId: fieldsShape.folderId,
  description: fieldsShape.description,
  tags: fieldsShape.tags,
  link: fieldsShape.link,
  ...transferShape,
  orgId: idSchema.optional(),
  concurrency: z.int().min(1).max(256).optional(),
  onProgress: fn<(progress: never) => void>('onProgress').optional(),
})

export const uploadDefaultsSchema = z.strictObject({
  partSize: transferShape.partSize,
  parallel: transferShape.parallel,
  retry: transferShape.retry,
  timeoutMs: transferShape.timeoutMs,
  credentialTtlMs: z.number().min(0).optional(),
  concurrency: uploadManyOptionsSchema.shape.concurrency,
})

export type AssetFields = z.output<z.ZodObject<typeof fieldsShape>>

/** How one object goes up, with every default applied. */
export interface TransferSettings {
  partSize: number
  parallel: number
  retry: UploadRetryPolicy
  timeoutMs: number
  checkpoint: CheckpointStore | undefined
  /** A failed multipart upload keeps its parts and checkpoint for a retry. */
  keepPartsOnFailure: boolean
}

export interface ResolvedDefaults {
  partSize: number
  parallel: number
  retry: UploadRetryPolicy
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

function retryPolicy(
  retry: z.output<typeof transferShape.retry>,
  base: UploadRetryPolicy,
): UploadRetryPolicy {
  if (retry === false) return { ...base, maxRetries: 0 }
  return {
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

/** Drops `undefined` fields (the material schema wants them absent). */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never
}

export const cleanupOptionsSchema = z.strictObject({
  olderThanMs: z.number().min(0, 'must not be negative').optional(),
  signal: signal.optional(),
})
