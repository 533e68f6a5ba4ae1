import { randomBytes } from 'node:crypto'
import { type XmlNode, xmlDocument } from './xml.ts'

/** Request ids look like real OSS ones: 24 upper-case hex digits. */
export function newRequestId(): string {
  return randomBytes(12).toString('hex').toUpperCase()
}

/** Status and default message of the error codes this store answers with (wording as real OSS). */
export const OSS_ERRORS = {
  AccessDenied: [403, 'You have no right to access this object because of bucket acl.'],
  AccessForbidden: [403, 'CORSResponse: This CORS request is not allowed.'],
  EntityTooSmall: [400, 'Your proposed upload smaller than the minimum allowed size.'],
  FileAlreadyExists: [409, 'The object you specified already exists and can not be overwritten.'],
  IncompleteBody: [
    400,
    'You did not provide the number of bytes specified by the Content-Length HTTP header.',
  ],
  InternalError: [500, 'We encountered an internal error. Please try again.'],
  InvalidAccessKeyId: [403, 'The OSS Access Key Id you provided does not exist in our records.'],
  InvalidArgument: [400, 'Invalid argument.'],
  InvalidBucketName: [400, 'The specified bucket is not valid.'],
  InvalidDigest: [400, 'The Content-MD5 you specified is not valid.'],
  InvalidObjectName: [400, 'The specified object is not valid.'],
  InvalidPart: [
    400,
    "One or more of the specified parts could not be found or the specified entity tag might not have matched the part's entity tag.",
  ],
  InvalidPartOrder: [
    400,
    'The list of parts was not in ascending order. Parts list must specified in order by part number.',
  ],
  InvalidRequest: [400, 'Invalid request.'],
  InvalidTag: [400, 'The tag provided was not a valid tag.'],
  InvalidTargetType: [400, 'The symlink target object does not exist or is not of the expected type.'],
  InvalidRange: [416, 'The requested range cannot be satisfied'],
  InvalidSecurityToken: [403, 'The security token you provided is invalid.'],
  InvalidURI: [400, 'Could not parse the specified URI.'],
  MalformedXML: [
    400,
    'The XML you provided was not well-formed or did not validate against our published schema.',
  ],
  MethodNotAllowed: [405, 'The specified method is not allowed against this resource.'],
  NoSuchKey: [404, 'The specified key does not exist.'],
  NoSuchUpload: [
    404,
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
  ],
  NotModified: [304, 'Not Modified'],
  NotSymlink: [400, 'The specified object is not a symlink.'],
  ObjectNotAppendable: [409, 'The operation is not valid for the current state of this object.'],
  PositionNotEqualToLength: [409, 'Position is not equal to file length'],
  PreconditionFailed: [412, 'At least one of the pre-conditions you specified did not hold.'],
  NotImplemented: [501, 'A header you provided implies functionality that is not implemented.'],
  RequestTimeTooSkewed: [403, 'The difference between the request time and the current time is too large.'],
  SecurityTokenExpired: [403, 'The security token you provided has expired.'],
  SignatureDoesNotMatch: [
    403,
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  ],
} as const satisfies Record<string, readonly [number, string]>

export type OssErrorCode = keyof typeof OSS_ERRORS

/**
 * An OSS error response: `<Error><Code/><Message/><RequestId/>...</Error>` as application/xml, with
 * `x-oss-request-id` (and `x-oss-ec` when an EC is given). HEAD answers carry no body, so the same
 * XML travels base64-encoded in `x-oss-err`, which is where ali-oss looks for it.
 * Extra `fields` become elements after RequestId (HostId, StringToSign, PartNumber, EC...).
 */
export function ossError(
  status: number,
  code: string,
  message: string,
  head = false,
  fields: Readonly<Record<string, string>> = {},
): Response {
  const { RequestId: givenId, ...rest } = fields
  const requestId = givenId ?? newRequestId()
  const nodes: XmlNode[] = [
    ['Code', code],
    ['Message', message],
    ['RequestId', requestId],
    ...Object.entries(rest).map(([name, value]): XmlNode => [name, value]),
  ]
  const xml = xmlDocument('Error', nodes)
  const headers = new Headers({ 'content-type': 'application/xml', 'x-oss-request-id': requestId })
  if (rest.EC) headers.set('x-oss-ec', rest.EC)
  // HEAD answers and 304 have no body.
  if (head || status === 304) {
    headers.set('x-oss-err', Buffer.from(xml).toString('base64'))
    return new Response(null, { status, headers })
  }
  return new Response(xml, { status, headers })
}

/** An error from the catalogue above, with its usual status and (unless given) its usual message. */
export function ossErrorFor(
  code: OssErrorCode,
  options: { message?: string | undefined; head?: boolean; fields?: Readonly<Record<string, string>> } = {},
): Response {
  const [status, message] = OSS_ERRORS[code]
  return ossError(status, code, options.message ?? message, options.head ?? false, options.fields ?? {})
}
