import { timingSafeEqual } from 'node:crypto'
import type { AuthOptions } from '../protocol/auth.ts'
import { webStreamChunks } from '../protocol/body-source.ts'
import type { OssCredential } from '../protocol/credentials.ts'
import { signatureV1 } from '../protocol/sign-v1.ts'
import { signatureV4, V4_ALGORITHM } from '../protocol/sign-v4.ts'
import { attributesFrom, userMetadata } from './object-attributes.ts'
import {
  DEFAULT_TYPE,
  OperationError,
  type OperationRequest,
  writeHeaders,
  xmlResponse,
} from './operation.ts'

/**
 * PostObject: a browser form upload (`POST /` as multipart/form-data). The form carries the key,
 * a base64 JSON policy (expiration and conditions) and its signature: V1 (`OSSAccessKeyId`,
 * `Signature` = base64 HMAC-SHA1 of the policy) or V4 (`x-oss-signature-version`,
 * `x-oss-credential`, `x-oss-date`, `x-oss-signature` = hex HMAC-SHA256 with the V4 signing
 * key), plus `x-oss-security-token` for STS keys. The form is read whole: fine for a simulator.
 */
async function postObject(r: OperationRequest): Promise<Response> {
  const chunks: Uint8Array[] = []
  for await (const chunk of r.body()) chunks.push(chunk)
  const form = await new Response(Buffer.concat(chunks), {
    headers: { 'content-type': r.headers.get('content-type') ?? '' },
  })
    .formData()
    .catch(() => {
      throw new OperationError('MalformedXML', 'The body is not a valid multipart/form-data form.')
    })
  const fields = new Headers()
  let file: File | undefined
  for (const [name, value] of form) {
    if (typeof value === 'string') fields.set(name, value)
    else if (name.toLowerCase() === 'file') file = value
  }
  if (!file) throw new OperationError('InvalidArgument', 'The form has no file field.')
  const key = (fields.get('key') ?? '').replace(/\$\{filename\}/g, file.name)
  if (key === '') throw new OperationError('InvalidArgument', 'The form has no key field.')
  const credential = authenticateForm(fields, r.auth)
  if (credential.bucket !== r.bucket)
    throw new OperationError('AccessDenied', 'The bucket you access does not belong to you.')
  if (!key.startsWith(credential.dir))
    throw new OperationError(
      'AccessDenied',
      `Access denied by authorizer's policy: writes are allowed under ${credential.dir} only.`,
    )
  checkPolicy(
    fields.get('policy') ?? '',
    { ...Object.fromEntries(fields), key, bucket: r.bucket },
    file.size,
    r.auth.now,
  )

  const object = await r.store.put({
    bucket: r.bucket,
    key,
    contentType: fields.get('content-type') || file.type || DEFAULT_TYPE,
    body: webStreamChunks(file.stream()),
    metadata: userMetadata(fields),
    attributes: attributesFrom(fields),
    forbidOverwrite: fields.get('x-oss-forbid-overwrite') === 'true',
  })
  const status = Number(fields.get('success_action_status') ?? '204')
  const headers = writeHeaders(object)
  if (status === 201) {
    const xml = xmlResponse(
      'PostResponse',
      [
        ['Bucket', r.bucket],
        ['Location', `${r.origin}/${encodeURIComponent(key).replace(/%2F/g, '/')}`],
        ['Key', key],
        ['ETag', object.etag],
      ],
      headers,
    )
    return new Response(xml.body, { status: 201, headers: xml.headers })
  }
  return new Response(null, { status: status === 200 ? 200 : 204, headers })
}

/** The form's signature over its policy, V1 or V4, and the key's STS token. */
function authenticateForm(fields: Headers, auth: AuthOptions): OssCredential {
  const policy = fields.get('policy')
  if (!policy) throw new OperationError('AccessDenied', 'The form has no policy.')
  const v4 = fields.get('x-oss-signature-version') === V4_ALGORITHM
  const scope = (fields.get('x-oss-credential') ?? '').split('/')
  const accessKeyId = v4 ? scope[0] : fields.get('ossaccesskeyid')
  const credential = accessKeyId ? auth.credentials.get(accessKeyId) : undefined
  if (!credential || (credential.expiresAt !== undefined && credential.expiresAt <= auth.now))
    throw new OperationError('AccessDenied', 'The access key in the form is unknown or expired.')
  const token = fields.get('x-oss-security-token')
  if ((credential.securityToken ?? null) !== token)
    throw new OperationError('AccessDenied', 'The security token in the form does not match the key.')
  const given = (v4 ? fields.get('x-oss-signature') : fields.get('signature')) ?? ''
  const expected = v4
    ? signatureV4(credential.accessKeySecret, scope[1] ?? '', scope[2] ?? '', policy, scope[3] ?? 'oss')
    : signatureV1(credential.accessKeySecret, policy)
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new OperationError('AccessDenied', 'The signature of the form policy does not match.')
  return credential
}

type Condition = Record<string, string> | [string, ...unknown[]]

/** The policy's expiration and conditions, checked against the form as OSS does. */
function checkPolicy(policy: string, form: Record<string, string>, size: number, now: number): void {
  let parsed: { expiration?: string; conditions?: Condition[] }
  try {
    parsed = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'))
  } catch {
    throw new OperationError('InvalidArgument', 'The policy is not base64 JSON.')
  }
  const expiration = Date.parse(parsed.expiration ?? '')
  if (Number.isNaN(expiration) || expiration < now)
    throw new OperationError('AccessDenied', 'Invalid according to Policy: Policy expired.')
  const value = (name: unknown) => form[String(name).replace(/^\$/, '').toLowerCase()] ?? ''
  const failed = (condition: unknown) =>
    new OperationError(
      'AccessDenied',
      `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`,
    )
  for (const condition of parsed.conditions ?? []) {
    if (!Array.isArray(condition)) {
      for (const [name, expected] of Object.entries(condition))
        if (value(name) !== expected) throw failed(condition)
      continue
    }
    const [kind, a, b] = condition
    const ok =
      kind === 'eq'
        ? value(a) === b
        : kind === 'starts-with'
          ? value(a).startsWith(String(b))
          : kind === 'content-length-range'
            ? size >= Number(a) && size <= Number(b)
            : kind === 'in'
              ? Array.isArray(b) && b.includes(value(a))
              : kind === 'not-in'
                ? Array.isArray(b) && !b.includes(value(a))
                : false
    if (!ok) throw failed(condition)
  }
}

export const POST_OBJECT_OPERATIONS = { PostObject: postObject }
