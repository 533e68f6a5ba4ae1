import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { assertSupportedNode, atLeast, MIN_NODE, UnsupportedNodeError } from '../src/host/runtime.ts'
import { startSimulator } from '../src/index.ts'

describe('the Node the simulator needs', () => {
  test('engines.node of the package states MIN_NODE', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(manifest.engines.node).toBe(`^${MIN_NODE} || >=24`)
  })

  test.each([
    ['20.20.2', false],
    ['18.20.4', false],
    ['22.12.0', false],
    ['v22.13.0', true],
    ['22.22.0', true],
    ['24.1.0', true],
  ] as const)('Node %s: supported %s', (version, supported) => {
    expect(atLeast(version, MIN_NODE)).toBe(supported)
    if (supported) expect(() => assertSupportedNode(version)).not.toThrow()
    else {
      const error = (() => {
        try {
          assertSupportedNode(version)
        } catch (e) {
          return e
        }
      })()
      expect(error).toBeInstanceOf(UnsupportedNodeError)
      expect(error).toMatchObject({ code: 'unsupported_node', required: MIN_NODE, actual: version })
      expect((error as Error).message).toBe(
        `The simulator needs Node ${MIN_NODE} or later; this is Node ${version}. Upgrade Node (22 or 24 LTS recommended).`,
      )
    }
  })

  test('startSimulator refuses before listening on an older Node', async () => {
    const real = process.versions.node
    Object.defineProperty(process.versions, 'node', { value: '20.2.0', configurable: true })
    try {
      await expect(startSimulator()).rejects.toBeInstanceOf(UnsupportedNodeError)
    } finally {
      Object.defineProperty(process.versions, 'node', { value: real, configurable: true })
    }
  })
})
