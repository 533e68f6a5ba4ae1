import type {
  ApiError,
  DemoInfo,
  EventsResponse,
  ImpersonationResponse,
  InboxSummary,
  MemberResponse,
  MembersResponse,
  SpacesResponse,
} from './types.ts'

/** A failure answer of the demo server, with its structured body. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError'
  readonly error: ApiError
  constructor(error: ApiError) {
    super(error.message)
    this.error = error
  }
}

async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ApiRequestError({
      code: 'network',
      status: 0,
      message: 'The demo server cannot be reached. Is `pnpm demo` still running?',
    })
  }
  return parse<T>(response)
}

export async function parse<T>(response: Response): Promise<T> {
  const text = await response.text()
  let json: unknown
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!response.ok) {
    const error = (json as { error?: ApiError } | undefined)?.error
    throw new ApiRequestError(
      error ?? {
        code: 'http_error',
        status: response.status,
        message: `The server answered ${response.status}.`,
      },
    )
  }
  return json as T
}

export const api = {
  config: () => request<DemoInfo>('GET', '/api/config'),
  members: () => request<MembersResponse>('GET', '/api/team/members'),
  createMember: (email: string, password?: string) =>
    request<MemberResponse>('POST', '/api/team/members', password ? { email, password } : { email }),
  inviteMember: (email: string) => request<MemberResponse>('POST', '/api/team/invitations', { email }),
  impersonate: (id: string) =>
    request<ImpersonationResponse>('POST', `/api/team/members/${encodeURIComponent(id)}/impersonation`, {}),
  spaces: () => request<SpacesResponse>('GET', '/api/spaces'),
  events: () => request<EventsResponse>('GET', '/api/events'),
  /** The inbox console's JSON API (the demo server mounts it at /inbox/, behind the page's session). */
  inboxSummary: () => request<InboxSummary>('GET', '/inbox/api/summary'),
  watchFolder: (folderId: string) =>
    request<{ watching: string }>('POST', '/api/folders/watch', { folderId }),
}
