/** OSS: a multipart upload has at most 10,000 parts. */
export const MAX_PARTS = 10_000
