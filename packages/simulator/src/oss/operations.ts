import type { OssOperation } from './credentials.ts'
import { MULTIPART_OPERATIONS } from './multipart-ops.ts'
import { OBJECT_OPERATIONS } from './object-ops.ts'
import type { Operation } from './operation.ts'
import type { QueryParams } from './request.ts'
import { SUB_RESOURCES } from './sign-v1.ts'

export { parseCompleteBody, partNumberOf } from './multipart-ops.ts'
export { OperationError, type OperationRequest } from './operation.ts'

export const OPERATIONS: Record<OssOperation, Operation> = {
  ...OBJECT_OPERATIONS,
  ...MULTIPART_OPERATIONS,
}

type Identified =
  | { op: OssOperation }
  | { code: 'MethodNotAllowed' | 'NotImplemented' | 'InvalidArgument'; message: string }

const notImplemented = (what: string) => ({
  code: 'NotImplemented' as const,
  message: `${what} is not implemented by the simulator.`,
})

/** Which operation a request is: by method and sub-resource, as OSS routes it. */
export function identify(method: string, key: string, query: QueryParams, headers: Headers): Identified {
  const has = (name: string) => query.some(([n]) => n === name)
  if (key === '') return identifyBucketLevel(method, has)
  // Sub-resources the simulator does not implement must not fall through to a plain GET or PUT.
  const known = new Set(['uploads', 'uploadId', 'partNumber', 'objectMeta', 'security-token'])
  const unknown = query.find(
    ([name]) => SUB_RESOURCES.has(name) && !known.has(name) && !name.startsWith('response-'),
  )
  if (unknown) return notImplemented(`Sub-resource ${unknown[0]}`)
  switch (method) {
    case 'HEAD':
      return { op: 'HeadObject' }
    case 'GET':
      return { op: has('uploadId') ? 'ListParts' : 'GetObject' }
    case 'PUT':
      if (headers.has('x-oss-copy-source')) return notImplemented('CopyObject')
      if (has('partNumber') || has('uploadId')) {
        if (!has('uploadId')) return { code: 'InvalidArgument', message: 'UploadPart needs an uploadId.' }
        return { op: 'UploadPart' }
      }
      return { op: 'PutObject' }
    case 'POST':
      if (has('uploads')) return { op: 'InitiateMultipartUpload' }
      if (has('uploadId')) return { op: 'CompleteMultipartUpload' }
      return notImplemented('This POST')
    case 'DELETE':
      return { op: has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject' }
    default:
      return { code: 'MethodNotAllowed', message: `${method} is not allowed against this resource.` }
  }
}

/** Requests on the bucket itself: listings and batch operations only (no bucket administration). */
function identifyBucketLevel(method: string, has: (name: string) => boolean): Identified {
  if (method === 'GET' && has('uploads')) return { op: 'ListMultipartUploads' }
  return {
    code: 'NotImplemented',
    message: 'The simulator implements object operations and listings, not bucket administration.',
  }
}
