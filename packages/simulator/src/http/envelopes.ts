import { randomBytes } from 'node:crypto'
import { stringifyJson } from '@service-sdk/core/internal'
import { OPEN_CODE, type SimErrorKind, TEAM_STATUS } from './sim-error.ts'

/** A JSON response written with `stringifyJson`, so bigint ids go out as raw integers with every digit. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(stringifyJson(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

export function teamOk(data: unknown): Response {
  return json({ success: true, data })
}

export function teamError(kind: SimErrorKind, error: string): Response {
  return json({ success: false, error }, TEAM_STATUS[kind])
}

export function traceId(): string {
  return randomBytes(8).toString('hex')
}

export function openOk(result: unknown, code: string | number = '0'): Response {
  return json({ code, message: 'success', result, traceId: traceId() })
}

/** Open-area refusals travel in a 200 envelope (busy included), except a failed authentication (401). */
export function openError(kind: SimErrorKind, message: string): Response {
  const status = kind === 'unauthorized' ? 401 : 200
  return json({ code: OPEN_CODE[kind], message, result: null, traceId: traceId() }, status)
}
