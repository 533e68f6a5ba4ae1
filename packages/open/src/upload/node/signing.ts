import type { SigningPlatform } from '../oss/connection.ts'
import { typeOfKey } from '../oss/content-type.ts'

/** ali-oss's User-Agent on Node (its version, and `platform`'s description of Node). */
const ALI_OSS_VERSION = '6.23.0'

function aliOssUserAgent(): string {
  const arch = /\b(?:AMD|IA|Win|WOW|x86_|x)64\b/i.test(process.arch) ? ' 64-bit' : ''
  const os = process.platform.charAt(0).toUpperCase() + process.platform.slice(1)
  const node = /[\d.]+/.exec(process.version)?.[0] ?? ''
  return `aliyun-sdk-nodejs/${ALI_OSS_VERSION} Node.js ${node} on ${os}${arch}`
}

/** Node signs as ali-oss does on Node: the same content types, the same User-Agent. */
export const nodeSigning: SigningPlatform = { typeOf: typeOfKey, userAgent: aliOssUserAgent() }
