import { describe, expect, it } from 'vitest'
import { defaultSeed, type SeedFolder } from './seed.ts'
import { FOLDERS, MEMBERS, SPACES } from './world.ts'

const ids = (folders: SeedFolder[] = []): Array<[string, string]> =>
  folders.flatMap((f) => [[f.id, f.name] as [string, string], ...ids(f.children)])

describe('the built-in world constants', () => {
  const seed = defaultSeed()
  it('name every member of the seed with its email', () => {
    expect(Object.values(MEMBERS).map((m) => [m.id, m.email, m.name])).toEqual(
      seed.users.map((u) => [u.id, u.email, u.name]),
    )
    expect(seed.caller.userId).toBe(MEMBERS.ada.id)
  })
  it('name every team space', () => {
    const { personal: _, ...teams } = SPACES
    expect(Object.values(teams)).toEqual(seed.teams.map((t) => t.id))
    expect(seed.caller.teamId).toBe(SPACES.acme)
  })
  it('name every folder of every space', () => {
    const { personal, ...teams } = FOLDERS
    const ada = seed.users.find((u) => u.id === MEMBERS.ada.id)
    expect(Object.values(personal)).toEqual(ids(ada?.folders).map(([id]) => id))
    for (const [name, tree] of Object.entries(teams)) {
      const team = seed.teams.find((t) => t.id === SPACES[name as keyof typeof teams])
      const folders = ids(team?.folders)
      expect(Object.values(tree)).toEqual(folders.map(([id]) => id))
      expect(folders[0]?.[1]).toMatch(/Campaigns$/)
    }
  })
})
