/**
 * The demo server's HTTP API as the page sees it: one contract, imported by the page and (types
 * only) by the server. Ids are strings of decimal digits, as everywhere in the SDK. Nothing here
 * ever carries a key or token, except the impersonation login URL, which is the point of that call.
 */

export type Mode = 'simulator' | 'service'

/** `GET /api/config`: what the page needs to render; no secrets. */
export interface DemoInfo {
  mode: Mode
  /** `{app_url}`: where the folder selector page lives (another origin than the demo). */
  appUrl: string
  /** `{base_url}`'s origin: the impersonation iframe's origin. */
  baseOrigin: string
  /** Flow 2 uploads larger than this are refused. */
  maxUploadBytes: number
  webhooks: WebhookStatus
}

export interface WebhookStatus {
  /** The receiver's URL with its token masked (`https://example.com/webhooks/AbC…`). */
  receiverUrl: string
  assetEvents: SubscriptionState & { eventTypes: string[] }
  folders: SubscriptionState & { folderIds: string[] }
}

export interface SubscriptionState {
  state: 'pending' | 'active' | 'failed'
  /** Why it failed, in words for a person. */
  message?: string
}

/** Every failure answer of the demo API. */
export interface ApiErrorBody {
  error: ApiError
}

export interface ApiError {
  /** A stable code: `invalid_input`, `domain_not_whitelisted`, `forbidden`, `not_found`, `conflict`, ... */
  code: string
  /** What happened and what to do, for a person. */
  message: string
  /** The HTTP status the service (or the demo) answered. */
  status: number
  /** Input problems, per field. */
  issues?: { field: string; message: string }[]
  /** For `domain_not_whitelisted`: the refused domain. */
  domain?: string
}

export interface Member {
  id: string
  name: string
  email: string
  createdAt: string
  teamId?: string
}

export interface MembersResponse {
  members: Member[]
}

export interface CreateMemberRequest {
  email: string
  password?: string
}

export interface InviteMemberRequest {
  email: string
}

export interface MemberResponse {
  member: Member
}

export interface ImpersonateRequest {
  expiryHours?: number
}

/** `POST /api/team/members/:id/impersonation`: the iframe to render (served with no-store). */
export interface ImpersonationResponse {
  member: { id: string }
  expiresAt: string
  expiryHours: number
  iframe: { src: string; title: string; sandbox: string; allow: string; referrerPolicy: string }
}

export interface Space {
  /** The selector's org id: `'1'` is the personal space. */
  id: string
  kind: 'personal' | 'team'
  name: string
  orgNo?: string
  edition?: string
  role?: string
  roleCode?: string
  valid: boolean
  /** Epoch ms; absent for the personal space. */
  expiresAt?: number
  writable: boolean
  /** Why it cannot be written to. */
  readOnlyReason?: string
}

export interface SpacesResponse {
  spaces: Space[]
}

export type UploadState = 'running' | 'done' | 'failed' | 'cancelled'

/** Pushed on the stream (`upload` event) for the uploads this page started. */
export interface UploadUpdate {
  id: string
  state: UploadState
  phase: 'receiving' | 'credentials' | 'uploading' | 'saving' | 'done'
  loaded: number
  total: number | null
  /** Smoothed bytes per second while uploading (null before the first sample and while paused). */
  rate?: number | null
  /** Estimated milliseconds left at `rate` (null while unknown). */
  etaMs?: number | null
  /** The upload is paused (`POST /api/uploads/:id/pause`). */
  paused?: boolean
  asset?: SavedAsset
  error?: ApiError
}

export interface SavedAsset {
  id: string
  key: string
  name: string
  extension: string
  size: number
  accessUrl: string
}

/** `POST /api/uploads` answer. */
export interface UploadResponse {
  asset: SavedAsset
}

/** One handled callback or webhook, as the events page shows it. */
export interface FeedEvent {
  /** Order of handling in this server's run (the stream's event id). */
  seq: number
  /** The receiver's de-duplication key (eventId, or a content hash for folder callbacks). */
  key: string
  eventType: string
  kind: 'folder' | 'asset' | 'unknown'
  /** The event's own time (epoch ms), when it has one. */
  eventTimeMs: number | null
  receivedAt: number
  handledAt: number
  /** One line for a person. */
  summary: string
  /** The parsed event, ids as strings. */
  event: unknown
}

export interface EventsResponse {
  events: FeedEvent[]
}

/**
 * `GET /inbox/api/summary`: the webhook inbox console's figures (`@service-sdk/webhooks/console`,
 * mounted by the demo server behind the page's session).
 */
export interface InboxSummary {
  counts: { pending: number; processing: number; done: number; dead: number }
  oldestPendingAt: number | null
  oldestPendingAgeMs: number | null
}
