// The `code` of each error class, as literal unions for `switch` (editors complete them). Where the
// service, the object storage or an upload proxy may send a code the SDK does not know yet, the
// union is open-ended (`| (string & {})`): the known codes still complete, and any other string is
// a valid code, so an exhaustive `switch` needs a `default` for the unknown ones.

/** Codes of the team area's HTTP failures (the status, named). */
export type TeamStatusCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'request_timeout'
  | 'conflict'
  | 'rate_limited'
  | 'server_error'
  | `http_${number}`

/** Codes the open area sends in its envelope for a failure (spec/openapi.yaml, `OpenEnvelope`). */
export type OpenAreaCode =
  | 'MB100001'
  | 'MB100002'
  | 'MB100003'
  | 'MB100004'
  | 'MB100005'
  | 'MS100001'
  | 'MS100003'

/** Codes the upload proxy of `@service-sdk/open/proxy` answers with (its README, "What the proxy guarantees"). */
export type UploadProxyCode =
  | 'validation_error'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'method_not_allowed'
  | 'origin_not_allowed'
  | 'outside_upload_dir'
  | 'space_not_allowed'
  | 'proxy_misconfigured'
  | 'proxy_error'
  | 'upstream_timeout'
  | 'upstream_unavailable'
  | 'upstream_rejected'

/** `ServiceInvalidRequestError`: HTTP 400, `MB100001` (bad parameters), `MB100004` (unsupported). */
export type InvalidRequestCode = 'bad_request' | 'MB100001' | 'MB100004' | 'validation_error' | (string & {})
/** `ServiceAuthenticationError`: HTTP 401. */
export type AuthenticationCode = 'unauthorized' | (string & {})
/** `ServicePermissionError`: HTTP 403, `MB100002`, or the upload proxy's refusals. */
export type PermissionCode =
  | 'forbidden'
  | 'MB100002'
  | 'origin_not_allowed'
  | 'outside_upload_dir'
  | 'space_not_allowed'
  | (string & {})
/** `ServiceNotFoundError`: HTTP 404, `MB100003`. */
export type NotFoundCode = 'not_found' | 'MB100003' | (string & {})
/** `ServiceConflictError`: HTTP 409. */
export type ConflictCode = 'conflict' | (string & {})
/** `ServiceRateLimitError`: HTTP 429, `MS100003` (busy). */
export type RateLimitCode = 'rate_limited' | 'MS100003' | (string & {})
/** `ServiceServerError`: HTTP 5xx, `MS100001`, or the upload proxy's own failures. */
export type ServerErrorCode =
  | 'server_error'
  | 'MS100001'
  | 'proxy_misconfigured'
  | 'proxy_error'
  | 'upstream_timeout'
  | 'upstream_unavailable'
  | 'upstream_rejected'
  | (string & {})
/** `ServiceResponseError`: the answer is not what the interface says. */
export type ResponseErrorCode = 'invalid_response'

/** `ServiceApiError` and its subclasses: any code of the service's areas or of the upload proxy. */
export type ServiceApiErrorCode =
  | TeamStatusCode
  | OpenAreaCode
  | UploadProxyCode
  | ResponseErrorCode
  | (string & {})

/**
 * `UploadError`: the SDK's own codes, `http_<status>` for an object-storage answer without a code,
 * or the object storage's code (`InternalError`, `NoSuchUpload`, `AccessDenied`, ...).
 */
export type UploadErrorCode =
  | 'connection_error'
  | 'timeout'
  | 'upload_failed'
  | 'source_error'
  | 'source_changed'
  | 'source_consumed'
  | 'checksum_mismatch'
  | 'invalid_credentials'
  | 'credential_scope_changed'
  | 'too_many_parts'
  | 'save_outcome_unknown'
  | 'checkpoint_unavailable'
  | `http_${number}`
  | 'InternalError'
  | 'NoSuchUpload'
  | 'AccessDenied'
  | (string & {})
