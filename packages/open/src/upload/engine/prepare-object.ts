import { type MaterialInput, ServiceValidationError, type ValidationIssue } from '@service-sdk/core'
import { defined } from '../material/defined.ts'
import { IMAGE_HEAD_BYTES, type ImageSize, imageSize } from '../material/image-size.ts'
import type { PreparedSource } from '../platform/platform.ts'
import { splitFileName } from './key.ts'
import type { EngineDeps, ObjectJob } from './object-job.ts'

/** A source opened and described, before anything is sent. */
export interface PreparedObject {
  source: PreparedSource
  name: string
  extension: string
  /** The name the key carries. */
  fileName: string
  size: ImageSize | undefined
}

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp'])

/**
 * Opens the source and works out the asset's name and extension: every problem with the input
 * is a `ServiceValidationError` here, before any request. The other asset fields were checked
 * with the options (their schemas are material-save's), once per call, not once per file.
 */
export async function prepareObject(deps: EngineDeps, job: ObjectJob): Promise<PreparedObject> {
  const source = await deps.platform.prepare(job.source)
  const fromFile = source.fileName ? splitFileName(source.fileName) : undefined
  const name = job.fields.name ?? fromFile?.name
  const extension = job.fields.extension ?? fromFile?.extension
  if (!name || !extension)
    throw new ServiceValidationError('upload options', unnamed(source, name, extension))
  if (job.transfer.checkpoint && !source.fingerprint) {
    deps.logger.warn(
      'upload: only files (a path, a File) can be resumed; this source is uploaded without a checkpoint',
    )
  }
  const wantsSize = job.fields.width === undefined && job.fields.height === undefined
  const size =
    wantsSize && source.kind === 'random' && isImage(extension)
      ? imageSize(await source.head(IMAGE_HEAD_BYTES))
      : undefined
  return { source, name, extension, fileName: source.fileName ?? `${name}.${extension}`, size }
}

function unnamed(
  source: PreparedSource,
  name: string | undefined,
  extension: string | undefined,
): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (!name) issues.push({ path: 'name', message: 'is required: the source carries no file name' })
  if (extension) return issues
  issues.push({
    path: 'extension',
    message: source.fileName
      ? `is required: "${source.fileName}" has no extension`
      : 'is required: the source carries no file name (e.g. { name: "photo", extension: "jpg" })',
  })
  return issues
}

function isImage(extension: string): boolean {
  return IMAGE_EXTENSIONS.has(extension.toLowerCase())
}

/** The material that registers the stored object (dimensions read now from a stream's head). */
export function materialOf(
  job: ObjectJob,
  prepared: PreparedObject,
  key: string,
  size: number,
): MaterialInput {
  const { source } = prepared
  const dimensions =
    prepared.size ??
    (source.kind === 'sequential' && isImage(prepared.extension) ? imageSize(source.head()) : undefined)
  return defined({
    key,
    folderId: job.fields.folderId,
    name: prepared.name,
    extension: prepared.extension,
    size,
    width: job.fields.width ?? dimensions?.width,
    height: job.fields.height ?? dimensions?.height,
    description: job.fields.description,
    tags: job.fields.tags,
    link: job.fields.link,
  }) as MaterialInput
}
