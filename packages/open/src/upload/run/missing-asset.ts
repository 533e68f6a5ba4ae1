import { ServiceResponseError } from '@service-sdk/core'

/** material-save answered, but without the asset of a material it was sent. */
export function missingAsset(key: string): ServiceResponseError {
  return new ServiceResponseError({
    status: 200,
    code: 'invalid_response',
    area: 'open',
    method: 'POST',
    path: '/open-api/standard/call/service/material-save',
    message: `material-save answered without the asset for ${key}: the object is stored, its asset may not be. Save it again with open.materials.save().`,
    isRetryable: false,
  })
}
