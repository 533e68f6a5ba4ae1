// The example end to end: the simulator's sender delivers to the Express app on a port.
import { describe, expect, it } from 'vitest'
import { runAgainstSimulator } from '../src/against-simulator.ts'

describe('express-webhooks example', () => {
  it('handles the upload and the deletion once each, against the simulator', async () => {
    const lines = await runAgainstSimulator(() => {})
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([])
    expect(lines.filter((l) => l.startsWith('inbound '))).toHaveLength(1)
    expect(lines.filter((l) => l.startsWith('deleted '))).toHaveLength(1)
    const [inbound] = lines.filter((l) => l.startsWith('inbound '))
    const id = inbound?.split('materials ')[1]
    expect(id).toMatch(/^\d+$/)
    expect(lines.find((l) => l.startsWith('deleted '))).toContain(`materials ${id}`)
  })
})
