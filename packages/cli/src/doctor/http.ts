/** An answer (status, headers, body text), or why there was none. */
export type Answer =
  | { status: number; headers: Headers; body: string }
  | { error: string; kind: 'tls' | 'refused' | 'dns' | 'timeout' | 'other' }

/**
 * One request, no retry, no redirect followed, at most `timeoutMs`: a check reports what
 * answered, as it answered.
 */
export async function send(url: string, init: RequestInit, timeoutMs: number): Promise<Answer> {
  try {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    return { status: response.status, headers: response.headers, body: await response.text() }
  } catch (error) {
    return noAnswer(error, timeoutMs)
  }
}

const TLS = /CERT|SSL|TLS|EPROTO|ERR_TLS/i

/** Why a request got no answer, from fetch's failure and its cause (Node's socket error). */
function noAnswer(error: unknown, timeoutMs: number): Answer {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return { error: `no answer within ${timeoutMs / 1000} s`, kind: 'timeout' }
  const code = err.cause?.code ?? ''
  const text =
    `${code ? `${code}: ` : ''}${err.cause?.message ?? err.message ?? String(error)}`.split('\n')[0] ?? ''
  if (TLS.test(code)) return { error: `TLS error: ${text}`, kind: 'tls' }
  if (code === 'ECONNREFUSED') return { error: `connection refused (${text})`, kind: 'refused' }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { error: `host not found (${text})`, kind: 'dns' }
  return { error: text, kind: 'other' }
}
