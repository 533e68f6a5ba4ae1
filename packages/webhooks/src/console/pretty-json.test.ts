import { describe, expect, it } from 'vitest'
import { prettyJson } from './pretty-json.ts'

describe('prettyJson', () => {
  it('indents without touching a value: 19-digit ids, floats, escapes, empty containers', () => {
    const text =
      '{"eventId":1951438207513255936,"f":0.10000000000000000001,"s":"a\\"b,{[:","e":{},"l":[],"n":[1,{"x":null}]}'
    expect(prettyJson(text)).toBe(
      [
        '{',
        '  "eventId": 1951438207513255936,',
        '  "f": 0.10000000000000000001,',
        '  "s": "a\\"b,{[:",',
        '  "e": {},',
        '  "l": [],',
        '  "n": [',
        '    1,',
        '    {',
        '      "x": null',
        '    }',
        '  ]',
        '}',
      ].join('\n'),
    )
  })

  it('gives back what went in when the text never closes a string', () => {
    expect(prettyJson('{"a":"never')).toBe('{"a":"never')
  })

  it('keeps every non-whitespace character in order', () => {
    const text = ' { "a" : [ 1 , 2 ] , "b" : "x y" } '
    expect(prettyJson(text).replace(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/g, '')).toBe('{"a":[1,2],"b":"x y"}')
  })
})
