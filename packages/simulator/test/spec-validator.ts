import { readFileSync } from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'

/**
 * Validates what the simulator sends against spec/openapi.yaml itself (not against the SDK's zod
 * schemas: the simulator must be checked against the interface, independently of the clients).
 */
const SPEC_URL = new URL('../../../spec/openapi.yaml', import.meta.url)
type Node = Record<string, unknown>

export const spec = parse(readFileSync(SPEC_URL, 'utf8')) as Node & {
  paths: Record<string, Record<string, Node>>
  webhooks: Record<string, Record<string, Node>>
  components: Record<string, Record<string, Node>>
}

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(spec, 'spec')

const compiled = new Map<string, ValidateFunction>()

function validatorFor(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer)
  if (!validate) {
    validate = ajv.compile({ $ref: `spec#${pointer}` })
    compiled.set(pointer, validate)
  }
  return validate
}

function resolve(node: Node): Node {
  const ref = node.$ref
  if (typeof ref !== 'string') return node
  const found = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => (at as Node)[part.replaceAll('~1', '/').replaceAll('~0', '~')], spec)
  return found as Node
}

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')

const OPEN_SUCCESS = new Set<unknown>(['0', 0, '200', 200])

/** The JSON pointer of the response schema the spec gives for this answer. */
export function responsePointer(method: string, path: string, status: number, body: unknown): string {
  const operation = spec.paths[path]?.[method.toLowerCase()]
  if (!operation) throw new Error(`${method} ${path} is not in the spec`)
  const responses = operation.responses as Record<string, Node>
  const isOpenFailure =
    typeof body === 'object' && body !== null && 'code' in body && !OPEN_SUCCESS.has((body as Node).code)
  // An open-area failure code may arrive with HTTP 200: it is the error envelope then.
  const key = isOpenFailure && status === 200 ? '4XX' : String(status)
  const candidates = [key, `${String(status)[0]}XX`, 'default']
  const chosen = candidates.find((c) => responses[c])
  if (!chosen) throw new Error(`the spec has no ${status} response for ${method} ${path}`)
  const response = resolve(responses[chosen] as Node)
  const base = (responses[chosen] as Node).$ref
    ? (String((responses[chosen] as Node).$ref).slice(1) as string)
    : `/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${pointerSegment(chosen)}`
  if (!(response.content as Node | undefined)?.['application/json']) {
    throw new Error(`the spec's ${chosen} response of ${method} ${path} has no JSON body`)
  }
  return `${base}/content/application~1json/schema`
}

/** Throws with ajv's errors when `body` does not match the spec's response for this answer. */
export function expectResponseMatchesSpec(method: string, path: string, status: number, body: unknown): void {
  const validate = validatorFor(responsePointer(method, path, status, body))
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${status} does not match the spec:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 500)}`,
    )
  }
}

/** Throws when a callback or webhook body does not match the spec's `webhooks` entry of its event type. */
export function expectWebhookMatchesSpec(eventType: string, body: unknown): void {
  if (!spec.webhooks[eventType]) throw new Error(`the spec has no webhook ${eventType}`)
  const validate = validatorFor(
    `/webhooks/${pointerSegment(eventType)}/post/requestBody/content/application~1json/schema`,
  )
  if (!validate(body)) {
    throw new Error(
      `${eventType} body does not match the spec:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`,
    )
  }
}

/** Whether `value` is valid against the spec's schema at `pointer` (e.g. `/components/schemas/Id`). */
export function specAccepts(pointer: string, value: unknown): boolean {
  return validatorFor(pointer)(value) === true
}
