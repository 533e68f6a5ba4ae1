import { project } from '../../vitest.shared.ts'

// The tests run the built binary (dist/main.js), as a user would: build first (turbo does).
export default project('cli', { test: { testTimeout: 60_000 } })
