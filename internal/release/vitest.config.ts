import { defineProject } from 'vitest/config'

export default defineProject({ test: { name: 'release', include: ['*.test.ts'], testTimeout: 120_000 } })
