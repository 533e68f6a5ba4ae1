import { ServiceValidationError } from '@service-sdk/core'
import type { UploadPlatform } from '../platform/platform.ts'
import { createXhrHttp } from './http.ts'
import { prepareBrowserSource, refuseBrowserSource } from './sources.ts'

/**
 * Browsers: Files, Blobs, bytes and streams; XMLHttpRequest; requests signed with Web Crypto (or
 * by the upload proxy); an object's type is its File's (no extension table is loaded).
 */
export function createPlatform(): UploadPlatform {
  return {
    refuse: refuseBrowserSource,
    prepare: prepareBrowserSource,
    http: createXhrHttp(),
    signing: {},
    checkpointDirectory() {
      throw new ServiceValidationError('upload options', [
        {
          path: 'checkpoint',
          message:
            'a directory works only in Node: in a browser pass indexedDbCheckpoints(), or a CheckpointStore of your own',
        },
      ])
    },
  }
}
