/**
 * A refusal by the simulated service. One kind maps to the team area's HTTP status and text
 * and to the open area's error code, so domain code states what went wrong once.
 */
export type SimErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unsupported'
  | 'business'
  | 'busy'
  | 'internal'

export class SimError extends Error {
  override name = 'SimError'
  readonly kind: SimErrorKind

  constructor(kind: SimErrorKind, message: string) {
    super(message)
    this.kind = kind
  }
}

export const TEAM_STATUS: Record<SimErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported: 400,
  business: 400,
  busy: 429,
  internal: 500,
}

/** Open-area codes seen on the live service (spec: `OpenErrorEnvelope`). */
export const OPEN_CODE: Record<SimErrorKind, string> = {
  bad_request: 'MB100001',
  unauthorized: '401',
  forbidden: 'MB100002',
  not_found: 'MB100003',
  conflict: 'MB100005',
  unsupported: 'MB100004',
  business: 'MB100005',
  busy: 'MS100003',
  internal: 'MS100001',
}
