import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhookFinding } from './webhook.ts'

// What each answer of a URL means to the webhook check, against a real HTTP server that answers
// `/<status>/<token>` with that status (and `/hang/...` never).

let server: Server
let base: string
const bodies: string[] = []
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      bodies.push(`${req.method} ${req.headers['content-type']} [${body}]`)
      const [, first] = (req.url ?? '').split('/')
      if (first === 'hang') return
      const status = Number(first)
      if (status >= 300 && status < 400)
        res.setHeader('location', 'https://elsewhere.example.com/in/abcdefghijklmnopqrstuvwxyz')
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const TOKEN = 'tok_0123456789abcdefghijkl'
const check = (first: string, openUrl = 'http://127.0.0.1:4010', timeoutMs = 2000) =>
  webhookFinding(`${base}/${first}/${TOKEN}`, openUrl, timeoutMs)

describe('the webhook URL check', () => {
  it('sends one POST with an empty text/plain body, and shows the URL without its token', async () => {
    bodies.length = 0
    const finding = await check('415')
    expect(bodies).toEqual(['POST text/plain []'])
    expect(finding.detail).not.toContain(TOKEN)
    expect(finding.detail).toMatch(/\/415\/<token>/)
  })

  it.each([
    ['415', 'ok', /a receiver is there/],
    ['400', 'ok', /a receiver is there/],
    ['422', 'ok', /a receiver is there/],
    ['404', 'fail', /not found \(404\)/],
    ['405', 'fail', /refuses POST \(405\)/],
    ['401', 'fail', /asks for credentials \(401\)/],
    ['403', 'fail', /asks for credentials \(403\)/],
    ['500', 'fail', /the receiver failed \(500\)/],
    ['503', 'fail', /the receiver failed \(503\)/],
    ['302', 'warn', /redirects \(302\) to https:\/\/elsewhere\.example\.com\/in\/<token>/],
    ['200', 'warn', /it takes a body that is not JSON/],
    ['204', 'warn', /it takes a body that is not JSON/],
  ])('%s is %s', async (status, verdict, detail) => {
    const finding = await check(status)
    expect(finding).toMatchObject({
      check: 'webhook-url',
      status: verdict,
      detail: expect.stringMatching(detail),
    })
    if (verdict !== 'ok') expect(finding.advice).toEqual(expect.any(String))
  })

  it('a receiver on this machine, with the service elsewhere, answers here only: a warning', async () => {
    const finding = await check('415', 'https://open.example.com')
    expect(finding).toMatchObject({ status: 'warn', advice: expect.stringMatching(/on this machine/) })
  })

  it('no answer within the timeout fails, saying how long it waited', async () => {
    const finding = await check('hang', undefined, 200)
    expect(finding).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/no answer within 0\.2 s$/),
    })
  })

  it('a host that does not resolve fails as such', async () => {
    const finding = await webhookFinding(`http://doctor-check.invalid/webhooks/${TOKEN}`, undefined, 5000)
    expect(finding).toMatchObject({ status: 'fail', detail: expect.stringMatching(/host not found/) })
  })

  it('not asked for: skipped, with how to ask', async () => {
    expect(await webhookFinding(undefined, undefined, 1000)).toMatchObject({
      status: 'skip',
      advice: expect.stringMatching(/--webhook-url/),
    })
  })
})
