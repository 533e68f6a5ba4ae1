import type { OssOperation } from '../protocol/credentials.ts'
import type { QueryParams } from '../protocol/request.ts'
import { SUB_RESOURCES } from '../protocol/sign-v1.ts'
import { BUCKET_OPERATIONS } from './bucket-ops.ts'
import { MULTIPART_OPERATIONS } from './multipart-ops.ts'
import { OBJECT_OPERATIONS } from './object-ops.ts'
import type { Operation } from './operation.ts'
import { POST_OBJECT_OPERATIONS } from './post-object.ts'
import { TAGGING_ACL_OPERATIONS } from './tagging-acl-ops.ts'

export { parseCompleteBody, partNumberOf } from './multipart-ops.ts'
export { OperationError, type OperationRequest } from './operation.ts'

export const OPERATIONS: Record<OssOperation, Operation> = {
  ...OBJECT_OPERATIONS,
  ...MULTIPART_OPERATIONS,
  ...TAGGING_ACL_OPERATIONS,
  ...BUCKET_OPERATIONS,
  ...POST_OBJECT_OPERATIONS,
}

type Identified =
  | { op: OssOperation }
  | { code: 'MethodNotAllowed' | 'NotImplemented' | 'InvalidArgument'; message: string }

const notImplemented = (what: string) => ({
  code: 'NotImplemented' as const,
  message: `${what} is not implemented by the simulator.`,
})

/** Sub-resources of object requests the simulator understands (`x-oss-traffic-limit` is accepted and not enforced). */
const KNOWN = new Set([
  'acl',
  'append',
  'objectMeta',
  'partNumber',
  'position',
  'security-token',
  'symlink',
  'tagging',
  'uploadId',
  'uploads',
  'x-oss-traffic-limit',
])

/** Which operation a request is: by method and sub-resource, as OSS routes it. */
export function identify(method: string, key: string, query: QueryParams, headers: Headers): Identified {
  const has = (name: string) => query.some(([n]) => n === name)
  if (key === '') return identifyBucketLevel(method, has, headers)
  // Sub-resources the simulator does not implement must not fall through to a plain GET or PUT.
  const unknown = query.find(
    ([name]) => SUB_RESOURCES.has(name) && !KNOWN.has(name) && !name.startsWith('response-'),
  )
  if (unknown) return notImplemented(`Sub-resource ${unknown[0]}`)
  const op = objectOperation(method, has, headers.has('x-oss-copy-source'))
  if (op === 'UploadPart' && !has('uploadId'))
    return { code: 'InvalidArgument', message: 'UploadPart needs an uploadId.' }
  if (op) return { op }
  if (method === 'POST') return notImplemented('This POST')
  return { code: 'MethodNotAllowed', message: `${method} is not allowed against this resource.` }
}

function objectOperation(
  method: string,
  has: (name: string) => boolean,
  copy: boolean,
): OssOperation | undefined {
  if (has('tagging'))
    return ({ GET: 'GetObjectTagging', PUT: 'PutObjectTagging', DELETE: 'DeleteObjectTagging' } as const)[
      method as 'GET'
    ]
  if (has('acl')) return ({ GET: 'GetObjectAcl', PUT: 'PutObjectAcl' } as const)[method as 'GET']
  if (has('symlink')) return ({ GET: 'GetSymlink', PUT: 'PutSymlink' } as const)[method as 'GET']
  switch (method) {
    case 'HEAD':
      return 'HeadObject'
    case 'GET':
      return has('uploadId') ? 'ListParts' : 'GetObject'
    case 'PUT':
      if (has('partNumber') || has('uploadId')) return copy ? 'UploadPartCopy' : 'UploadPart'
      return copy ? 'CopyObject' : 'PutObject'
    case 'POST':
      if (has('append')) return 'AppendObject'
      if (has('uploads')) return 'InitiateMultipartUpload'
      if (has('uploadId')) return 'CompleteMultipartUpload'
      return undefined
    case 'DELETE':
      return has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject'
    default:
      return undefined
  }
}

/** Requests on the bucket itself: listings, batch delete and form uploads (no bucket administration). */
function identifyBucketLevel(method: string, has: (name: string) => boolean, headers: Headers): Identified {
  const bucketSubresource = [...SUB_RESOURCES].find(
    (name) => has(name) && !['uploads', 'delete', 'continuation-token', 'security-token'].includes(name),
  )
  if (!bucketSubresource) {
    if (method === 'GET' && has('uploads')) return { op: 'ListMultipartUploads' }
    if (method === 'GET') return { op: has('list-type') ? 'ListObjectsV2' : 'ListObjects' }
    if (method === 'POST' && has('delete')) return { op: 'DeleteMultipleObjects' }
    if (method === 'POST' && /^multipart\/form-data/i.test(headers.get('content-type') ?? ''))
      return { op: 'PostObject' }
  }
  return notImplemented('Bucket administration')
}
