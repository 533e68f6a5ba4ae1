/**
 * JSON text indented for reading, without parsing a value: strings, numbers and literals are
 * copied as they are, only whitespace between tokens changes. So an id of 19 digits, a float of
 * any precision and every escape keep exactly what the sender wrote (a parse and `stringify`
 * would round numbers beyond 2^53). Text that is not JSON comes out as it went in.
 */
export function prettyJson(text: string, indent = '  '): string {
  let out = ''
  let depth = 0
  let i = 0
  const newline = () => `\n${indent.repeat(depth)}`
  while (i < text.length) {
    const c = text[i] as string
    if (c === '"') {
      const end = stringEnd(text, i)
      if (end < 0) return text
      out += text.slice(i, end)
      i = end
      continue
    }
    i++
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      const next = nextToken(text, i)
      if (text[next] === close) {
        out += c + close
        i = next + 1
        continue
      }
      depth++
      out += c + newline()
    } else if (c === '}' || c === ']') {
      depth = Math.max(0, depth - 1)
      out += newline() + c
    } else if (c === ',') out += `,${newline()}`
    else if (c === ':') out += ': '
    else out += c
  }
  return out
}

/** The index just past the string starting at `start` (a `"`), or -1 when it never ends. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i + 1
  }
  return -1
}

function nextToken(text: string, from: number): number {
  let i = from
  while (i < text.length && /\s/.test(text[i] as string)) i++
  return i
}
