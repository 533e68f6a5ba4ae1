/**
 * A small, strict reader of OSS's XML answers (the multipart results and the error document).
 * Hand-written for load time: the documents are a few flat elements, and a general parser costs
 * every uploading process more to load than it reads here (fast-xml-parser 5, the usual choice,
 * took 33-41 ms to import on the bench machine; ali-oss's xml2js path, most of its ~180 ms). Strict: a document that is not well-formed, declares a DTD
 * (no entity expansion) or has another root is not read at all (`undefined`). Tolerant of what
 * OSS may vary: a declaration or none, whitespace around values, attributes, comments, CDATA,
 * and entity-escaped text (`&quot;` in ETags, `&amp;` in keys).
 */

/** An element: its name, child elements, and the character data directly inside it. */
export interface XmlElement {
  name: string
  children: XmlElement[]
  text: string
}

// One token at a time from the current offset: a declaration or processing instruction, a
// comment, CDATA, a start tag (name, attributes, self-closing), an end tag, or text.
const TOKEN =
  /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<\/([A-Za-z_][\w.:-]*)\s*>|([^<]+)/y
const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));|&/g
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Decoded character data, or `undefined` for a bare `&` or an unknown entity. */
function decode(raw: string): string | undefined {
  if (!raw.includes('&')) return raw
  let bad = false
  const text = raw.replace(ENTITY, (match, name?: string, dec?: string, hex?: string) => {
    if (name) return NAMED[name] ?? match
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : Number.NaN
    if (!(code > 0 && code <= 0x10ffff)) {
      bad = true
      return match
    }
    return String.fromCodePoint(code)
  })
  return bad ? undefined : text
}

/** The root element of `source` when it is well-formed and named `root`, else `undefined`. */
export function readXml(source: string, root: string): XmlElement | undefined {
  const open: XmlElement[] = []
  let top: XmlElement | undefined
  TOKEN.lastIndex = source.charCodeAt(0) === 0xfeff ? 1 : 0
  while (TOKEN.lastIndex < source.length) {
    const token = TOKEN.exec(source)
    if (!token) return undefined
    const [, cdata, start, , selfClosing, end, text] = token
    const parent = open.at(-1)
    if (text !== undefined || cdata !== undefined) {
      const value = cdata ?? decode(text as string)
      if (value === undefined) return undefined
      if (parent) parent.text += value
      // Outside the root only whitespace may stand.
      else if (cdata !== undefined || value.trim() !== '') return undefined
    } else if (start !== undefined) {
      if (!parent && top) return undefined
      const element: XmlElement = { name: start, children: [], text: '' }
      if (parent) parent.children.push(element)
      else top = element
      if (!selfClosing) open.push(element)
    } else if (end !== undefined) {
      if (parent?.name !== end) return undefined
      open.pop()
    }
    // Anything else is a declaration, processing instruction or comment: skipped.
  }
  return open.length === 0 && top?.name === root ? top : undefined
}

/** The trimmed text of the first child named `name`, or `undefined` when there is none. */
export function textOf(element: XmlElement, name: string): string | undefined {
  return element.children.find((c) => c.name === name)?.text.trim()
}

/** The children named `name`, in document order. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name)
}
