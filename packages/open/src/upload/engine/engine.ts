// The upload engine proper (sending objects, the OSS layer, CRC-64, cleanup): loaded on first use by
// load-engine.ts, so that a page importing the client does not download it up front.
export { cleanupUploads } from './cleanup.ts'
export { sendObject } from './object-upload.ts'
export { prepareObject } from './prepare-object.ts'
