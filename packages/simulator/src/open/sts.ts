import type { SimContext } from '../model/context.ts'
import { BUCKET, type Id, secret } from '../model/state.ts'

/**
 * The directory a user's STS credentials may write into; material-save accepts keys under it only.
 * With the `stsDir: 'empty'` quirk, `''`: the whole bucket (spec: `UploadCredential.dir` may be empty).
 */
export function uploadDir(sim: Pick<SimContext, 'quirks'>, userId: Id): string {
  return sim.quirks.stsDir === 'empty' ? '' : `upload/${userId}/`
}

/** sts-tmp: short-lived credentials bound to the simulator's bucket and the caller's directory. */
export function issueCredential(sim: SimContext, userId: Id) {
  const credential = {
    accessKeyId: secret('STS.', 12),
    accessKeySecret: secret('', 24),
    securityToken: secret('CAIS', 48),
    bucket: BUCKET,
    dir: uploadDir(sim, userId),
    userId,
    expiresAt: sim.now() + sim.stsTtlMs,
  }
  const data = sim.state.data
  // Expired credentials are of no more use: keep the list short.
  data.sts = data.sts.filter((s) => s.expiresAt > sim.now() - 3_600_000)
  data.sts.push(credential)
  sim.state.commit()
  return {
    endPoint: sim.ossEndpoint(),
    bucket: credential.bucket,
    dir: credential.dir,
    accessKeyId: credential.accessKeyId,
    accessKeySecret: credential.accessKeySecret,
    securityToken: credential.securityToken,
  }
}
