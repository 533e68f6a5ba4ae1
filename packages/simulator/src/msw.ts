import { type HttpHandler, HttpResponse, http } from 'msw'
import { isConnectionReset } from './control/connection-reset.ts'
import type { InProcessSimulator } from './host/in-process.ts'

/**
 * MSW request handlers that answer every request to the in-process simulator's origins from it:
 * `setupServer(...simulatorHandlers(sim))` (msw/node). One `http.all` per origin, plus one for
 * the storage's virtual-hosted buckets. A connection reset (fault `reset`) is a network error
 * (`HttpResponse.error()`), as on a socket.
 */
export function simulatorHandlers(sim: InProcessSimulator): HttpHandler[] {
  const escaped = sim.domain.replaceAll('.', '\\.')
  const answer = async ({ request }: { request: Request }) => {
    const answered = sim.answer(request)
    if (!answered) return undefined
    try {
      return await answered
    } catch (error) {
      if (isConnectionReset(error)) return HttpResponse.error()
      throw error
    }
  }
  return [
    http.all(`${sim.urls.base}/*`, answer),
    http.all(`${sim.urls.open}/*`, answer),
    http.all(`${sim.urls.app}/*`, answer),
    http.all(`${sim.urls.oss}/*`, answer),
    http.all(new RegExp(`^https://[a-z0-9][a-z0-9-]*\\.oss\\.${escaped}/`), answer),
  ]
}
