/**
 * Just enough XML for the OSS shapes: a serializer for the few response documents and a strict
 * little parser for request bodies (CompleteMultipartUpload). No DTDs: a body that declares one is
 * malformed, so no entity expansion can be smuggled in.
 */

/** An element: its name and either text or child elements. `undefined` children are skipped. */
export type XmlNode = readonly [
  name: string,
  content: string | number | boolean | ReadonlyArray<XmlNode | undefined>,
]

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

function write(node: XmlNode, out: string[]): void {
  const [name, content] = node
  if (typeof content === 'object') {
    out.push(`<${name}>`)
    for (const child of content) if (child) write(child, out)
    out.push(`</${name}>`)
  } else {
    out.push(`<${name}>${escapeXml(String(content))}</${name}>`)
  }
}

/** A whole document, with the declaration real OSS sends. */
export function xmlDocument(root: string, children: ReadonlyArray<XmlNode | undefined>): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
  write([root, children], out)
  return out.join('')
}

export interface XmlElement {
  name: string
  children: XmlElement[]
  /** Concatenated character data directly inside this element (entities decoded). */
  text: string
}

export class XmlSyntaxError extends Error {
  override name = 'XmlSyntaxError'
}

const NAME = /[A-Za-z_:][\w.:-]*/y
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decodeEntities(text: string, at: number): string {
  if (!text.includes('&')) return text
  return text.replace(/&([^;]*);|&/g, (match, body: string | undefined) => {
    if (body === undefined) throw new XmlSyntaxError(`bare '&' near offset ${at}`)
    const named = NAMED_ENTITIES[body]
    if (named !== undefined) return named
    const code = /^#x[0-9a-f]+$/i.test(body)
      ? Number.parseInt(body.slice(2), 16)
      : /^#\d+$/.test(body)
        ? Number(body.slice(1))
        : Number.NaN
    if (!Number.isInteger(code) || code > 0x10ffff) throw new XmlSyntaxError(`unknown entity ${match}`)
    return String.fromCodePoint(code)
  })
}

/** Parses one document into its root element; throws XmlSyntaxError on anything not well-formed. */
export function parseXml(source: string): XmlElement {
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0

  const fail = (what: string): never => {
    throw new XmlSyntaxError(`${what} at offset ${i}`)
  }
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i] as string)) i++
  }
  const skipMisc = () => {
    for (;;) {
      skipSpace()
      if (source.startsWith('<!--', i)) {
        const end = source.indexOf('-->', i + 4)
        if (end < 0) fail('unterminated comment')
        i = end + 3
      } else if (source.startsWith('<?', i)) {
        const end = source.indexOf('?>', i + 2)
        if (end < 0) fail('unterminated processing instruction')
        i = end + 2
      } else if (source.startsWith('<!', i)) {
        fail('DTDs are not accepted')
      } else return
    }
  }
  const readName = (): string => {
    NAME.lastIndex = i
    const match = NAME.exec(source)
    if (!match) return fail('expected a name')
    i = NAME.lastIndex
    return match[0]
  }

  const element = (): XmlElement => {
    if (source[i] !== '<') fail('expected an element')
    i++
    const name = readName()
    // Attributes are accepted and ignored (OSS bodies carry none that matter).
    for (;;) {
      skipSpace()
      const c = source[i]
      if (c === '/' || c === '>') break
      if (c === undefined) fail('unterminated start tag')
      readName()
      skipSpace()
      if (source[i] !== '=') fail('expected = in attribute')
      i++
      skipSpace()
      const quote = source[i]
      if (quote !== '"' && quote !== "'") return fail('expected a quoted attribute value')
      const end = source.indexOf(quote, i + 1)
      if (end < 0) fail('unterminated attribute value')
      i = end + 1
    }
    const node: XmlElement = { name, children: [], text: '' }
    if (source[i] === '/') {
      if (source[i + 1] !== '>') fail('expected />')
      i += 2
      return node
    }
    i++
    for (;;) {
      const lt = source.indexOf('<', i)
      if (lt < 0) fail(`unterminated element <${name}>`)
      node.text += decodeEntities(source.slice(i, lt), i)
      i = lt
      if (source.startsWith('</', i)) {
        i += 2
        if (readName() !== name) fail(`mismatched end tag for <${name}>`)
        skipSpace()
        if (source[i] !== '>') fail('expected >')
        i++
        return node
      }
      if (source.startsWith('<!--', i)) {
        const end = source.indexOf('-->', i + 4)
        if (end < 0) fail('unterminated comment')
        i = end + 3
      } else if (source.startsWith('<![CDATA[', i)) {
        const end = source.indexOf(']]>', i + 9)
        if (end < 0) fail('unterminated CDATA')
        node.text += source.slice(i + 9, end)
        i = end + 3
      } else if (source.startsWith('<?', i) || source.startsWith('<!', i)) {
        fail('unexpected markup')
      } else {
        node.children.push(element())
      }
    }
  }

  skipMisc()
  const root = element()
  skipMisc()
  if (i !== source.length) fail('content after the root element')
  return root
}
