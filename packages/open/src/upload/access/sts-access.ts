import { ServiceResponseError, type UploadCredential } from '@service-sdk/core'
import type { Instrumentation, Redactor } from '@service-sdk/core/internal'
import { loadSchemas } from '../../load-schemas.ts'
import { credentialAccess, type StorageAccess } from '../oss/access.ts'

/**
 * Store access from sts-tmp (a client holding the open API token): the credential is checked
 * before it is trusted, and its secrets join the client's redactor before any request uses them.
 */
export function stsAccess(deps: {
  credentials: () => Promise<UploadCredential>
  redact: Redactor
  instrumentation?: Instrumentation | undefined
}): () => Promise<StorageAccess> {
  return async () => {
    const credential = await deps.credentials()
    const { uploadCredentialSchema } = await loadSchemas()
    const parsed = uploadCredentialSchema.safeParse(credential)
    if (!parsed.success) {
      throw new ServiceResponseError({
        status: 200,
        code: 'invalid_response',
        area: 'open',
        method: 'POST',
        path: '/open-api/standard/call/service/sts-tmp',
        message: `sts-tmp returned an incomplete credential (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}): the upload cannot start`,
        isRetryable: false,
      })
    }
    deps.redact.add(credential.accessKeySecret, credential.securityToken)
    deps.instrumentation?.addEvent('upload.credentials_issued') // on the upload that asked
    return credentialAccess(credential)
  }
}
