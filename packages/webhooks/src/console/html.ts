/**
 * HTML made from strings the console does not control (keys, types, bodies, errors: whatever a
 * sender put in an event): every interpolated value is escaped, so none can open a tag or leave
 * an attribute. `raw()` marks markup this module built.
 */
export class Html {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
  toString(): string {
    return this.text
  }
}

type Part = Html | string | number | null | undefined | false | readonly Part[]

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text for an element's content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)
}

function part(value: Part): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return value.map(part).join('')
  return escapeHtml(String(value))
}

/** A template whose values are escaped (arrays joined, null/undefined/false left out). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? ''
  for (let i = 0; i < values.length; i++) out += part(values[i] as Part) + (strings[i + 1] ?? '')
  return new Html(out)
}

export const raw = (text: string): Html => new Html(text)

/**
 * A string as ASCII-only JSON (`"k\u0000y"`): what an HTML attribute can carry exactly. HTML has
 * no way to hold a NUL, and a lone surrogate cannot be written in UTF-8; keys may hold both, so
 * the page's script reads keys from this form (`data-key`).
 */
export function asciiJson(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what this looks for
const CONTROLS = /[\u0000-\u001f\u007f]/

/** A string as a person may read it: as is, or as its escaped JSON form when it holds controls or lone surrogates. */
export function readable(text: string, max = Number.POSITIVE_INFINITY): string {
  const shown = text.isWellFormed() && !CONTROLS.test(text) ? text : asciiJson(text)
  return shown.length > max ? `${shown.slice(0, max)}…` : shown
}
