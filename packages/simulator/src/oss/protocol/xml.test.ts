import { describe, expect, it } from 'vitest'
import { parseCompleteBody } from '../operations/operations.ts'
import { escapeXml, parseXml, xmlDocument } from './xml.ts'

describe('xml', () => {
  it('escapes text and writes nested documents', () => {
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;')
    expect(
      xmlDocument('R', [
        ['Key', 'a&b'],
        undefined,
        [
          'P',
          [
            ['N', 1],
            ['T', true],
          ],
        ],
      ]),
    ).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<R><Key>a&amp;b</Key><P><N>1</N><T>true</T></P></R>')
  })

  it('parses what ali-oss sends for CompleteMultipartUpload', () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUpload>\n<Part>\n<PartNumber>1</PartNumber>\n' +
      '<ETag>"0CC175B9C0F1B6A831C399E269772661"</ETag>\n</Part>\n<Part>\n<PartNumber>2</PartNumber>\n' +
      '<ETag>&quot;92EB5FFEE6AE2FEC3AD71C777531578F&quot;</ETag>\n</Part>\n</CompleteMultipartUpload>'
    expect(parseCompleteBody(body)).toEqual([
      { partNumber: 1, etag: '"0CC175B9C0F1B6A831C399E269772661"' },
      { partNumber: 2, etag: '"92EB5FFEE6AE2FEC3AD71C777531578F"' },
    ])
  })

  it('decodes entities, CDATA and ignores comments and attributes', () => {
    const root = parseXml('<!-- c --><a x="1"><b>&#x41;&#66;&lt;<![CDATA[<raw>]]></b><!-- d --><c/></a>')
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c'])
    expect(root.children[0]?.text).toBe('AB<<raw>')
  })

  it.each([
    ['unclosed', '<a><b></a>'],
    ['two roots', '<a/><b/>'],
    ['bare ampersand', '<a>x & y</a>'],
    ['unknown entity', '<a>&nbsp;</a>'],
    ['doctype', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['empty', ''],
  ])('rejects %s', (_, text) => {
    expect(() => parseXml(text)).toThrow()
  })

  it.each([
    ['another root', '<Complete><Part><PartNumber>1</PartNumber><ETag>x</ETag></Part></Complete>'],
    [
      'a part without ETag',
      '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>',
    ],
    [
      'a non-numeric part',
      '<CompleteMultipartUpload><Part><PartNumber>one</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>',
    ],
    ['broken XML', '<CompleteMultipartUpload><Part>'],
  ])('reports %s as MalformedXML', (_, text) => {
    expect(() => parseCompleteBody(text)).toThrow(expect.objectContaining({ code: 'MalformedXML' }))
  })
})
