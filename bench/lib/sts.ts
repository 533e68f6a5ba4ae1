/** Upload credentials as sts-tmp hands them out (the open API's UploadCredential). */
export interface StsCredential {
  endPoint: string
  bucket: string
  dir: string
  accessKeyId: string
  accessKeySecret: string
  securityToken: string
}

/** One sts-tmp call against a simulator's open API, with its open token. */
export async function fetchSts(
  openUrl: string,
  token: { type: string; value: string },
): Promise<StsCredential> {
  const answer = await fetch(`${openUrl}/open-api/standard/call/service/sts-tmp`, {
    method: 'POST',
    headers: { authorization: `${token.type} ${token.value}`, 'content-type': 'application/json' },
  })
  return ((await answer.json()) as { result: StsCredential }).result
}
