/** The lifecycle events of the page; both message families map onto this one set. */
export type SelectorEvent = 'loaded' | 'init' | 'unMounted' | 'cancel' | 'success' | 'error'

/** What the user chose. Ids are strings of decimal digits, like every id in the SDK. */
export interface FolderChoice {
  folderId: string
  /**
   * The team space, or `null` when the page sent none: the personal space. `'1'` also means the
   * personal space (see `orgIdForSave`, which maps both to "omit orgId").
   */
  orgId: string | null
}

/** The page's failure report (flow 1: the upload failed). */
export interface PageFailure {
  /** The page's own text, when it sent one (at most 500 characters). */
  message: string | undefined
}

/** The detail each event's handlers receive. */
export interface SelectorEvents {
  loaded: undefined
  init: undefined
  unMounted: undefined
  cancel: undefined
  success: FolderChoice
  error: PageFailure
}

export type PageMessage = { [E in SelectorEvent]: { event: E; detail: SelectorEvents[E] } }[SelectorEvent]

/** A message of a known type whose payload cannot be used: `problem` says why, in words. */
export interface UnusableMessage {
  event: SelectorEvent
  problem: string
}

export type Theme = 'light' | 'dark'

// `<prefix>-` + these; the two message families of the selector page (README, "The message protocol"). A Map, so `service-constructor` and
// friends cannot resolve to Object.prototype members.
const EVENTS = new Map<string, SelectorEvent>([
  ['choiceModal-loaded', 'loaded'],
  ['choiceModal-unMounted', 'unMounted'],
  ['choiceModal-cancel', 'cancel'],
  ['choiceModal-success', 'success'],
  ['choiceModal-error', 'error'],
  ['selector-loaded', 'loaded'],
  ['selector-init', 'init'],
  ['selector-page-unMounted', 'unMounted'],
  ['selector-page-cancel', 'cancel'],
  ['selector-page-success', 'success'],
  ['selector-page-error', 'error'],
])

type Dict = Record<string, unknown>

// Only plain objects: structured clone also delivers arrays, Blobs, Dates, Maps...
const isDict = (value: unknown): value is Dict => Object.prototype.toString.call(value) === '[object Object]'

/**
 * A folder or team id as the page may send it: a safe non-negative integer, or up to 19 decimal
 * digits (a Java long). Unsafe numbers are refused: structured clone already rounded them.
 */
export function toId(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? `${value}` : undefined
  // BigInt normalises leading zeros.
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return `${BigInt(value)}`
}

/** Why `value` is not an id, for an error message; never shows a rounded number as an id. */
const idProblem = (name: string, value: unknown) =>
  `${name} is ${
    value === undefined
      ? 'missing'
      : Number.isInteger(value) && (value as number) > 0
        ? 'a number beyond 2^53, rounded on its way'
        : 'not an integer id'
  }`

/**
 * The page's message as one of our events; an `UnusableMessage` for a known type whose payload
 * cannot be used; `undefined` for anything that is not a message of ours at all.
 */
export function parsePageMessage(data: unknown, prefix: string): PageMessage | UnusableMessage | undefined {
  if (!isDict(data) || typeof data.type !== 'string' || !data.type.startsWith(`${prefix}-`)) return
  const event = EVENTS.get(data.type.slice(prefix.length + 1))
  // The interface writes `payLoad`; `payload` is accepted too, since the same service spells it so elsewhere.
  const payload = 'payLoad' in data ? data.payLoad : data.payload
  if (event === 'success') {
    if (!isDict(payload)) return { event, problem: 'payLoad is not an object' }
    const folderId = toId(payload.id)
    // No orgId (absent or null): the personal space.
    const orgId = payload.orgId == null ? null : toId(payload.orgId)
    if (folderId === undefined) return { event, problem: idProblem('id', payload.id) }
    if (orgId === undefined) return { event, problem: idProblem('orgId', payload.orgId) }
    return { event, detail: { folderId, orgId } }
  }
  if (event === 'error') {
    const text = [data.message, payload, isDict(payload) && payload.message].find(
      (v): v is string => typeof v === 'string',
    )
    return { event, detail: { message: text?.slice(0, 500) } }
  }
  return event && { event, detail: undefined }
}

/** Flow 2's message to the page, sent once after its loaded message. */
export const initMessage = (prefix: string, theme: Theme) => ({
  type: `${prefix}-choiceModal-init`,
  data: { theme },
})

/** Flow 1's message to the page, sent once after its loaded message. */
export const openMessage = (files: readonly (File | string)[], isUrl: boolean, link: string) => ({
  type: 'open',
  data: { files, options: { isUrl, link } },
})
